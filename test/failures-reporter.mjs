// A test reporter that prints, after everything else, one block per failed test: its file, name and
// error. CI keeps only the tail of a long run's output, and the TAP stream puts a failure where it
// happened, hundreds of lines up; this summary is what the tail shows.
export default async function* failures(source) {
  const failed = [];
  for await (const event of source) {
    if (event.type !== 'test:fail') continue;
    const { name, file, line, details, nesting } = event.data;
    if (details?.type === 'suite') continue; // its failed tests are listed themselves
    const error = details?.error;
    const cause = error?.cause ?? error;
    const message = String(cause?.message ?? cause ?? 'failed').split('\n').slice(0, 12).join('\n    ');
    const stack = String(cause?.stack ?? '').split('\n').filter((l) => l.trim().startsWith('at ')).slice(0, 4);
    failed.push({ name, file, line, nesting, message, stack });
  }
  if (failed.length === 0) return;
  yield `\n# ${failed.length} failed:\n`;
  for (const f of failed) {
    yield `# ✖ ${f.file ?? '?'}${f.line ? `:${f.line}` : ''}\n#   ${f.name}\n#   ${f.message.replace(/\n/g, '\n# ')}\n`;
    for (const s of f.stack) yield `#   ${s.trim()}\n`;
  }
}
