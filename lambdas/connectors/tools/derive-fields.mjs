// Regenerates ../derived-fields.json (read by ../derived-fields.ts) from the shared connector-fields.derived.json (api-shapes.md §6).
// Usage: node lambdas/connectors/tools/derive-fields.mjs [path/to/connector-fields.derived.json]
// The output is committed so the build never depends on the shared folder.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const src = process.argv[2] ?? '/work/shared/reference/connector-fields.derived.json';
const data = JSON.parse(readFileSync(src, 'utf8'));

const TYPE_MAP = {
  string: 'string',
  integer: 'integer',
  boolean: 'boolean',
  'string[]': 'string[]',
  'string or SecretReference': 'string|secret_ref',
};

function parseDefault(raw, type) {
  if (raw === null || raw === '\u2014') return undefined; // required, or optional without default
  if (type === 'boolean') return raw === 'true';
  if (type === 'integer') return Number(raw);
  return JSON.parse(raw); // strings are JSON-quoted in the source
}

const out = { source: {}, destination: {} };
for (const kind of ['source', 'destination']) {
  for (const [type, model] of Object.entries(data[kind])) {
    if (model === null) { out[kind][type] = null; continue; }
    out[kind][type] = {
      extraAllowed: model.extra_allowed,
      fields: model.fields.map((f) => {
        const t = TYPE_MAP[f.type];
        if (!t) throw new Error(`unknown field type ${f.type} in ${kind}/${type}`);
        const spec = { name: f.field, type: t, required: f.required };
        const def = parseDefault(f.default, f.type);
        if (def !== undefined) spec.default = def;
        for (const c of f.constraints) {
          const i = c.indexOf('=');
          const k = c.slice(0, i);
          const v = c.slice(i + 1);
          if (k === 'pattern') spec.pattern = v;
          else if (k === 'minimum') spec.minimum = Number(v);
          else if (k === 'maximum') spec.maximum = Number(v);
          else throw new Error(`unknown constraint ${c}`);
        }
        spec.requiredInResponse = f.required_in_response;
        if (f.secret_inferred) spec.secret = true;
        return spec;
      }),
    };
  }
}

/** JSON with one field a line: a reviewer reads a connector's fields as a list. */
function render(table) {
  const kinds = Object.keys(table).map((kind) => {
    const models = Object.entries(table[kind]).map(([type, model]) => {
      if (model === null) return `    ${JSON.stringify(type)}: null`;
      const fields = model.fields.map((f) => `        ${JSON.stringify(f)}`).join(',\n');
      return `    ${JSON.stringify(type)}: {\n      "extraAllowed": ${model.extraAllowed},\n      "fields": [\n${fields}\n      ]\n    }`;
    });
    return `  ${JSON.stringify(kind)}: {\n${models.join(',\n')}\n  }`;
  });
  return `{\n${kinds.join(',\n')}\n}\n`;
}

writeFileSync(join(here, '..', 'derived-fields.json'), render(out));
console.log('wrote derived-fields.json');
