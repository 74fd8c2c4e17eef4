// Secrets go over TLS only (DESIGN §9, issue 27): a connector sends a token, password, API key or
// client secret only over TLS: an https:// endpoint, and for database protocols that carry a password
// in the clear on a plain connection, their TLS form (bolt+s / neo4j+s for Neo4j basic auth,
// couchbases for Couchbase, rediss or ssl for Redis AUTH). There is no clear-text switch for test
// stand-ins: they serve TLS with a certificate trusted through CONNECTOR_CA_FILE, as a private CA
// would be. Connectors apply this at validation (a 422 naming the field) and again before every
// call, for configs stored before the rule. Clear text stays allowed when no secret is configured.
//
// Not listed on purpose: postgres:// and mongodb:// authenticate with SCRAM (SCRAM-SHA-256 /
// SCRAM-SHA-1), a challenge-response that never sends the password, so a plain connection does not
// leave the password readable on the wire.

/** The TLS form of each clear-text scheme a secret could be sent over. */
const TLS_FORM: Record<string, string> = {
  http: 'https',
  bolt: 'bolt+s',
  neo4j: 'neo4j+s',
  couchbase: 'couchbases',
  redis: 'rediss',
};

/** The scheme of `url` as a URL parser reads it (tabs and newlines dropped, case-folded), or undefined. */
function schemeOf(url: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  const text = url.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+/, '');
  return /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
}

/** Why sending `secret` to `url` (the config's `field`) would leave it readable on the wire, or undefined. */
export function clearTextProblem(url: string, field: string, secret: string): string | undefined {
  const scheme = schemeOf(url);
  const tls = scheme && TLS_FORM[scheme];
  if (!tls) return undefined; // a TLS scheme, or not a URL: the field's own validation says so
  return `${field} is a plain ${scheme}:// URL, which would send the ${secret} in clear text: use ${tls}:// (a private or test CA is trusted with CONNECTOR_CA_FILE)`;
}

/** The same rule for a setting that turns TLS off (e.g. Redis `ssl: false`) while a secret is configured. */
export function clearTextSettingProblem(field: string, secret: string, fix: string): string {
  return `${field} turns TLS off, which would send the ${secret} in clear text: ${fix} (a private or test CA is trusted with CONNECTOR_CA_FILE)`;
}

/** Whether a secret field holds a secret (a non-empty string). */
export const hasSecret = (v: unknown): boolean => typeof v === 'string' && v.length > 0;
