// A form generated from a JSON schema of the service's OpenAPI document (the per-type connector
// config schemas): a field per property, required ones marked, defaults as placeholders, credentials
// (named as the service's masking rule names them) as password fields that never show a stored value,
// nested objects and lists as JSON. 422 items appear next to the field they name.
import { CREDENTIAL_NAME, SECRET_MASK } from '../../lambdas/credential-names';
import { ApiError } from './api';
import { html } from './ui';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  default?: unknown;
  enum?: unknown[];
  description?: string;
  anyOf?: JsonSchema[];
  title?: string;
}

const kindOf = (s: JsonSchema): string => {
  const types = [s.type, ...(s.anyOf ?? []).map((a) => a.type)].flat().filter((t): t is string => typeof t === 'string' && t !== 'null');
  return types[0] ?? 'string';
};

export const isSecretField = (name: string) => CREDENTIAL_NAME.test(name);

/** The config a form's values give: empty fields left out, JSON fields parsed (a parse error names the field). */
export function configFrom(schema: JsonSchema, values: Record<string, string | boolean>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const v = values[name];
    if (v === undefined || v === '') continue;
    const kind = kindOf(prop);
    if (kind === 'boolean') out[name] = v === true;
    else if (kind === 'integer' || kind === 'number') out[name] = Number(v);
    else if (kind === 'object' || kind === 'array') {
      try {
        out[name] = JSON.parse(String(v));
      } catch {
        throw new ApiError(422, [{ loc: ['body', 'config', name], msg: 'Not valid JSON', type: 'json_invalid' }]);
      }
    } else out[name] = v;
  }
  return out;
}

/** Form values from a stored config: credentials stay the mask the API answers with (sent back, it keeps the stored value). */
export function valuesFrom(config: Record<string, unknown>): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (const [k, v] of Object.entries(config)) {
    if (v === null || v === undefined) continue;
    out[k] = typeof v === 'boolean' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
  return out;
}

export function SchemaFields({ schema, values, onChange, error }: { schema: JsonSchema; values: Record<string, string | boolean>; onChange: (name: string, v: string | boolean) => void; error?: unknown }) {
  const required = new Set(schema.required ?? []);
  return html`<div class="fields">${Object.entries(schema.properties ?? {}).map(([name, prop]) => {
    const kind = kindOf(prop);
    const id = `f-${name}`;
    const problems = error instanceof ApiError ? error.about(name) : [];
    const label = html`${name}${required.has(name) ? html`<span aria-hidden="true"> *</span>` : null}`;
    const hint = prop.description ? html`<small class="muted">${prop.description}</small>` : null;
    const issues = problems.length ? html`<small class="field-error" role="alert">${problems.join('; ')}</small>` : null;
    const invalid = problems.length ? 'true' : undefined;
    if (kind === 'boolean') {
      return html`<label class="check" for=${id}><input id=${id} type="checkbox" checked=${values[name] === true || (values[name] === undefined && prop.default === true)} onChange=${(e: Event) => onChange(name, (e.target as HTMLInputElement).checked)} /> ${label} ${issues}</label>`;
    }
    const value = values[name] === undefined ? '' : String(values[name]);
    if (kind === 'object' || kind === 'array') {
      return html`<label for=${id}>${label} (JSON)<textarea id=${id} rows="3" aria-invalid=${invalid} value=${value} onInput=${(e: Event) => onChange(name, (e.target as HTMLTextAreaElement).value)}></textarea>${hint}${issues}</label>`;
    }
    const secret = isSecretField(name);
    return html`<label for=${id}>${label}
      <input id=${id} name=${name} type=${secret ? 'password' : kind === 'integer' || kind === 'number' ? 'number' : 'text'} autocomplete=${secret ? 'new-password' : 'off'}
        required=${required.has(name)} aria-invalid=${invalid} placeholder=${secret && value === SECRET_MASK ? '(stored: leave as is to keep it)' : prop.default !== undefined ? `default: ${String(prop.default)}` : ''}
        value=${value} onInput=${(e: Event) => onChange(name, (e.target as HTMLInputElement).value)} />${hint}${issues}</label>`;
  })}</div>`;
}
