// What a credential is called, and how a stored one is shown: a leaf without imports, shared by the
// masking rule (credentials.ts) and the web console's connector forms (password fields).

export const SECRET_MASK = '**********';

/** Key names whose value is a credential. */
export const CREDENTIAL_NAME =
  /(token|secret|passw(or)?d|passwd|pwd|api[-_]?key|apikey|access[-_]?key|private[-_]?key|credential|client[-_]?cred|connection[-_]?string|authori[sz]ation|^(x-)?auth$|[-_]auth$|cookie|session[-_]?(id|key)|signature|webhook|(^|[-_.])key$|dsn$)/i;
