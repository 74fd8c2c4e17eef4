// The documentation that restates the code, generated from it so that it cannot drift (`npm run docs`
// writes it; test/contract/docs-pages.test.ts fails when a page is stale): the configuration table from
// the config schema (its JSDoc comments are the descriptions), the connector tables from the registry
// (each type's config schema), the route list from the route table, the partition parameters from the
// OpenAPI document (the endpoint's form schema), and the README's lists of file
// types and connector types. A generated part of a page sits between
// `<!-- generated:NAME:start -->` and `<!-- generated:NAME:end -->`; a page that is all generated has no
// markers and is written whole.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { z } from 'zod';
import { CONFIG_SCHEMA } from '../lambdas/config';
import { getConnector, listTypes, type ConnectorKind } from '../lambdas/connectors/registry';
import { ROUTES } from '../lambdas/routes';
import { FILE_TYPES } from '../lambdas/engine/partition/types';
import { buildOpenApi } from '../lambdas/openapi';

export interface GeneratedPart {
  /** Repository-relative file. */
  file: string;
  /** Marker name, or undefined for a page written whole. */
  block?: string;
  content: string;
}

const cell = (s: string) => s.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

/** Each config schema field's JSDoc comment, read from the source of lambdas/config.ts. */
function configComments(root: string): Map<string, string> {
  const file = path.join(root, 'lambdas', 'config.ts');
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out = new Map<string, string>();
  const visit = (n: ts.Node) => {
    if (ts.isPropertyAssignment(n) && ts.isIdentifier(n.name) && /^[A-Z][A-Z0-9_]+$/.test(n.name.text)) {
      const docs = (n as unknown as { jsDoc?: ts.JSDoc[] }).jsDoc;
      const text = docs?.map((d) => (typeof d.comment === 'string' ? d.comment : ts.getTextOfJSDocComment(d.comment) ?? '')).join(' ');
      if (text) out.set(n.name.text, text);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

function configTable(root: string): string {
  const comments = configComments(root);
  const rows = Object.entries(CONFIG_SCHEMA.shape).map(([name, field]) => {
    const parsed = (field as z.ZodType).safeParse(undefined);
    const dflt = parsed.success && parsed.data !== undefined ? `\`${String(parsed.data)}\`` : 'unset';
    return `| \`${name}\` | ${dflt} | ${cell(comments.get(name) ?? '')} |`;
  });
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}

interface FieldSchema { type?: string | string[]; description?: string; default?: unknown; anyOf?: FieldSchema[]; enum?: unknown[] }

function connectorPage(): string {
  const parts: string[] = [
    '# Connector types and their config fields',
    '',
    'Generated from the connector registry (`npm run docs`): each type\'s `config` as the API validates it.',
    'Required fields are marked; secret fields are stored encrypted and never returned (masked as `**********`).',
    'What a document or record is for each store, and what each is tested against: [../connectors.md](../connectors.md).',
  ];
  for (const kind of ['source', 'destination'] as ConnectorKind[]) {
    parts.push('', `## ${kind === 'source' ? 'Sources' : 'Destinations'}`);
    for (const type of listTypes(kind)) {
      const def = getConnector(kind, type)!;
      const js = z.toJSONSchema(def.input, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, FieldSchema>; required?: string[] };
      const required = new Set(js.required ?? []);
      const secret = new Set(def.secretFields);
      parts.push('', `### \`${type}\``, '');
      const props = Object.entries(js.properties ?? {});
      if (!props.length) {
        parts.push(def.freeForm ? 'Free-form config (any fields; credentials found by name and masked).' : 'No config fields.');
        continue;
      }
      parts.push('| Field | Type | Required | Default | Notes |', '|---|---|---|---|---|');
      for (const [name, f] of props) {
        const types = [f.type, ...(f.anyOf ?? []).map((a) => a.type)].flat().filter((t) => t && t !== 'null');
        const enumText = f.enum ? ` one of ${f.enum.map((e) => `\`${String(e)}\``).join(', ')}` : '';
        const notes = [secret.has(name) ? 'secret' : '', f.description ?? ''].filter(Boolean).join('; ');
        parts.push(`| \`${name}\` | ${[...new Set(types)].join(' or ') || 'any'}${enumText} | ${required.has(name) ? 'yes' : ''} | ${f.default === undefined ? '' : `\`${cell(JSON.stringify(f.default))}\``} | ${cell(notes)} |`);
      }
    }
  }
  return parts.join('\n') + '\n';
}

function routesPage(): string {
  const rows = ROUTES.map((r) => `| ${r.method} | \`${r.path}\` | ${r.auth === false ? 'no' : 'yes'} | ${cell(r.summary)} |`);
  return [
    '# Routes',
    '',
    'Generated from the route table (`lambdas/routes.ts`, which API Gateway, the local router and the OpenAPI',
    'document all read) by `npm run docs`. Schemas, status codes and examples: `GET /openapi.json`, browsable at `/docs`.',
    '',
    '| Method | Path | Key needed | What it does |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n') + '\n';
}

interface FormField { type?: string | string[]; description?: string; default?: unknown; anyOf?: FormField[]; enum?: unknown[]; items?: FormField }

function partitionParametersPage(): string {
  const doc = buildOpenApi() as { components: { schemas: Record<string, { properties?: Record<string, FormField> }> } };
  const props = doc.components.schemas.Body_partition?.properties ?? {};
  const typeOf = (f: FormField): string => {
    const types = [f.type, ...(f.anyOf ?? []).map((a) => a.type)].flat().filter((t) => t && t !== 'null');
    const base = [...new Set(types)].join(' or ') || 'any';
    return f.enum ? `${base}: ${f.enum.map((e) => `\`${String(e)}\``).join(', ')}` : base;
  };
  const rows = Object.entries(props).map(([name, f]) => `| \`${name}\` | ${cell(typeOf(f))} | ${f.default === undefined ? '' : `\`${cell(JSON.stringify(f.default))}\``} | ${cell(f.description ?? '')} |`);
  return [
    '# Partition parameters',
    '',
    'The multipart form fields of `POST /general/v0/general` (the partition endpoint), generated from the OpenAPI',
    'document (`npm run docs`). A job\'s partition node takes the same names in its `settings`. How documents are',
    'read, and the optional system packages: [../partition.md](../partition.md).',
    '',
    '| Field | Type | Default | Meaning |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n') + '\n';
}

function fileTypesBrief(): string {
  return `File types (detected by content, the extension as a hint; gzip of any of them too): ${FILE_TYPES.map((t) => `\`${t}\``).join(', ')}.`;
}

function connectorsBrief(): string {
  const line = (kind: ConnectorKind) => listTypes(kind).map((t) => `\`${t}\``).join(', ');
  return [
    `| Kind | Types |`,
    `|---|---|`,
    `| Sources (${listTypes('source').length}) | ${line('source')} |`,
    `| Destinations (${listTypes('destination').length}) | ${line('destination')} |`,
  ].join('\n');
}

/** Every generated part, from the code as it is now. */
export function generatedParts(root: string): GeneratedPart[] {
  return [
    { file: 'README.md', block: 'filetypes', content: fileTypesBrief() },
    { file: 'README.md', block: 'connectors-brief', content: connectorsBrief() },
    { file: 'docs/configuration.md', block: 'config', content: configTable(root) },
    { file: 'docs/reference/connectors.md', content: connectorPage() },
    { file: 'docs/reference/routes.md', content: routesPage() },
    { file: 'docs/reference/partition-parameters.md', content: partitionParametersPage() },
  ];
}

/** `text` with the part put in (its block replaced, or the whole page); throws when a block's markers are missing. */
export function applyPart(text: string | undefined, part: GeneratedPart): string {
  if (!part.block) return part.content;
  const start = `<!-- generated:${part.block}:start -->`;
  const end = `<!-- generated:${part.block}:end -->`;
  const i = text?.indexOf(start) ?? -1;
  const j = text?.indexOf(end) ?? -1;
  if (!text || i < 0 || j < i) throw new Error(`${part.file}: no ${start} … ${end}`);
  return `${text.slice(0, i + start.length)}\n${part.content}\n${text.slice(j)}`;
}
