// Secrets go over TLS only (DESIGN §9, issue 27): a connector sends a token, password, API key or
// client secret only to an https:// endpoint. There is no clear-text switch for test stand-ins: they
// serve TLS with a certificate trusted through CONNECTOR_CA_FILE, as a private CA would be. Connectors
// apply this at validation (a 422 naming the field) and again before every call, for configs stored
// before the rule.

/** Why sending `secret` to `url` (the config's `field`) would leave it readable on the wire, or undefined. */
export function clearTextProblem(url: string, field: string, secret: string): string | undefined {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return undefined; // not a URL: the field's own validation says so
  }
  if (protocol !== 'http:') return undefined;
  return `${field} is a plain http:// URL, which would send the ${secret} in clear text: use https:// (a private or test CA is trusted with CONNECTOR_CA_FILE)`;
}
