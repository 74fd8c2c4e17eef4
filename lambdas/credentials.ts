// What counts as a credential in a config or a node's settings, and its masked form for responses.
// One rule for connectors (lambdas/connectors/registry.ts) and node settings (domain/node-secrets.ts), a leaf:
//
// - by schema: a type's declared secret fields (the caller passes them) are masked whole;
// - by name, at any depth where the shape is the tenant's (free-form configs, extra keys, nested maps):
//   authorization, token, secret, password, key, api key, credential, cookie, webhook..., and every
//   value under a headers map;
// - by value, anywhere: a URL with userinfo (scheme://user:pass@host) or a credential in its query
//   (?token=, ?sig=, ?api_key=), an `Authorization`-style value (Bearer/Basic), and well-known token
//   shapes (Slack xox?-, Slack webhook paths, GitHub ghp_, OpenAI sk-, AWS AKIA...).
//
// Masking keeps the shape (objects stay objects, arrays stay arrays) and replaces each credential
// leaf with SECRET_MASK, so a client can send a response back unchanged: a field equal to the masked
// form of the stored value means "keep what is stored" (isMaskedFormOf).
import { isDeepStrictEqual } from 'node:util';
import { CREDENTIAL_NAME, SECRET_MASK } from './credential-names';

/** Maps whose every value is treated as a credential (HTTP headers carry them under any name). */
const HEADERS_NAME = /^(http[-_]?|extra[-_]?|custom[-_]?|default[-_]?)?headers?$/i;

/** Query parameters that carry a credential. */
const CREDENTIAL_QUERY = /^(key|sig|code|auth|access_token|id_token|x-amz-signature|x-amz-credential|x-amz-security-token)$/i;

const VALUE_SHAPES: RegExp[] = [
  /^\s*(bearer|basic|token|digest)\s+\S/i,
  /\bxox[abposre]-[A-Za-z0-9-]+/,
  /hooks\.slack\.com\/(services|workflows|triggers)\//i,
  /\bgh[pousr]_[A-Za-z0-9]{16,}/,
  /\bsk-[A-Za-z0-9_-]{16,}/,
  /\b(AKIA|ASIA)[0-9A-Z]{16}\b/,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
];

/** A URL's userinfo (scheme://user[:pass]@host), tolerant of multi-host URIs that URL() refuses. */
const URL_USERINFO = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@\s]+@/i;

/** Whether a string value carries a credential whatever its key is called. */
export function isCredentialValue(value: string): boolean {
  if (URL_USERINFO.test(value)) return true;
  if (VALUE_SHAPES.some((re) => re.test(value))) return true;
  const q = value.indexOf('?');
  if (q >= 0 && /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    const query = value.slice(q + 1).split('#')[0]!;
    for (const part of query.split('&')) {
      let name = part.split('=')[0] ?? '';
      try {
        name = decodeURIComponent(name);
      } catch {
        // -- a malformed escape: judge the raw name --
      }
      if (CREDENTIAL_NAME.test(name) || CREDENTIAL_QUERY.test(name)) return true;
    }
  }
  return false;
}

function maskAll(value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (Array.isArray(value)) return value.map(maskAll);
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskAll(v)]));
  // -- credentials are strings: a number or a flag under a credential-like name (max_tokens) is not one --
  return typeof value === 'string' && value !== '' ? SECRET_MASK : value;
}

/**
 * The masked form of `value` found under `key` (undefined key: an array element or the root).
 * `byName` false judges the value only (a schema field the type declares not secret).
 */
export function maskValue(key: string | undefined, value: unknown, byName = true): unknown {
  if (value === null || value === undefined) return value;
  if (byName && key !== undefined && (CREDENTIAL_NAME.test(key) || HEADERS_NAME.test(key))) return maskAll(value);
  if (typeof value === 'string') return isCredentialValue(value) ? SECRET_MASK : value;
  if (Array.isArray(value)) return value.map((v) => maskValue(undefined, v));
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskValue(k, v)]));
  return value;
}

export interface MaskRules {
  /** Fields the type's schema declares secret: masked whole (a SecretReference object is kept). */
  secretFields?: Iterable<string>;
  /** Fields the type's schema knows: judged by value only, since the schema says they are not secret. */
  schemaFields?: Iterable<string>;
}

function isSecretReference(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && typeof (v as Record<string, unknown>).id === 'string';
}

/** The masked form of one top-level field of a config under the rules. */
export function maskField(name: string, value: unknown, rules: MaskRules = {}): unknown {
  if (value === null || value === undefined) return value;
  const secrets = new Set(rules.secretFields ?? []);
  if (secrets.has(name)) {
    // A SecretReference ({id,type}) names a secret kept elsewhere; it is not itself a secret.
    if (isSecretReference(value)) return value;
    return typeof value === 'object' ? maskAll(value) : SECRET_MASK;
  }
  const known = new Set(rules.schemaFields ?? []);
  return maskValue(name, value, !known.has(name));
}

/** A copy of the config with every credential masked (see the header). */
export function maskConfig(config: Record<string, unknown>, rules: MaskRules = {}): Record<string, unknown> {
  return Object.fromEntries(Object.entries(config).map(([k, v]) => [k, maskField(k, v, rules)]));
}

/** Top-level fields of a config that hold a credential (what is sealed at rest and masked). */
export function credentialFields(config: Record<string, unknown>, rules: MaskRules = {}): string[] {
  return Object.entries(config)
    .filter(([k, v]) => v !== null && v !== undefined && !isDeepStrictEqual(maskField(k, v, rules), v))
    .map(([k]) => k);
}

/** Whether `incoming` is what a response showed for `stored` (a round trip: keep the stored value). */
export function isMaskedFormOf(incoming: unknown, masked: unknown): boolean {
  return incoming !== undefined && incoming !== null && isDeepStrictEqual(incoming, masked) && JSON.stringify(incoming).includes(SECRET_MASK);
}

/**
 * The credential texts inside a value (what maskValue hides): whole credential leaves, and for a URL
 * its userinfo, password and credential query values, so a message quoting part of a URL (a host
 * parser's "user:pass@host is not a valid bucket name") can be scrubbed too.
 */
export function credentialTexts(value: unknown, rules: MaskRules = {}): string[] {
  const out = new Set<string>();
  const walk = (clear: unknown, masked: unknown): void => {
    if (typeof clear === 'string') {
      if (masked !== SECRET_MASK || clear.length < 4) return;
      out.add(clear);
      const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#@\s]+)@/i.exec(clear);
      if (m) {
        out.add(m[1]!);
        const colon = m[1]!.indexOf(':');
        if (colon >= 0 && m[1]!.length - colon > 4) out.add(m[1]!.slice(colon + 1));
      }
      for (const [, v] of clear.matchAll(/[?&][^=&#]+=([^&#]{4,})/g)) out.add(v!);
      return;
    }
    if (Array.isArray(clear)) clear.forEach((v, i) => walk(v, (masked as unknown[])?.[i]));
    else if (clear && typeof clear === 'object') for (const [k, v] of Object.entries(clear)) walk(v, (masked as Record<string, unknown>)?.[k]);
  };
  if (value && typeof value === 'object' && !Array.isArray(value)) walk(value, maskConfig(value as Record<string, unknown>, rules));
  else walk(value, maskValue(undefined, value));
  return [...out].sort((a, b) => b.length - a.length);
}

/** The text with every given credential (and its URL-encoded form) replaced by SECRET_MASK. */
export function scrubText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    for (const form of new Set([s, encodeURIComponent(s), JSON.stringify(s).slice(1, -1)])) out = out.split(form).join(SECRET_MASK);
  }
  return out;
}
