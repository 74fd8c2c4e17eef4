// The bytes of a Salesforce record as the platform's downloader writes them (salesforce.py), so the
// partitioned elements match the platform's:
// - Account, Case, Campaign, Lead: ElementTree XML, `<root>` with one `<item>` per field, the text
//   `<prefix><key>: <value>` where nested objects (attributes, compound addresses) are flattened
//   with `parent.` prefixes and each value is printed as Python's str() prints it (None, True,
//   3000000.0: the number as Salesforce wrote it, int or float, hence the lossless JSON parse).
// - EmailMessage: the platform's minimal multipart .eml template (Date from MessageDate through
//   email.utils.formatdate, Message-ID, Subject, From, To, text and HTML bodies), with one change:
//   a blank line ends the message's and each part's headers. The platform's template has none;
//   Python's email parser then starts the body at the first line that is not a header, but
//   mailparser (this service's .eml partitioner) keeps reading headers and finds no body at all.
//   The parts are the same for Python either way (unless a body's first line looks like a header,
//   where the platform's own document loses that line into the headers).
import { isLosslessNumber, parse as parseLossless } from 'lossless-json';

/** A record as parsed from Salesforce's JSON with number lexemes kept (LosslessNumber). */
export type SfRecord = Record<string, unknown>;

/** Salesforce JSON with every number kept as its lexeme (3000000.0 stays a float, 0 an int). */
export function parseSalesforceJson(text: string): unknown {
  return parseLossless(text);
}

/** Python's repr() of a float given as a JSON number lexeme: shortest digits, Python's layout. */
export function pyFloat(lexeme: string): string {
  const x = Number(lexeme);
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mant, exp] = Math.abs(x).toExponential().split('e') as [string, string];
  const digits = mant.replace('.', '');
  const decpt = Number(exp) + 1; // the value is 0.<digits> × 10^decpt
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
    if (decpt >= digits.length) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}.0`;
    return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  }
  const e = decpt - 1;
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${m}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

/** A JSON number lexeme as Python prints the value json.loads made of it (int or float). */
function pyNumber(lexeme: string): string {
  if (/[.eE]/.test(lexeme)) return pyFloat(lexeme);
  return BigInt(lexeme).toString();
}

/** Python's repr() of a str. */
function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '\\' || ch === quote) out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${quote}${out}${quote}`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !isLosslessNumber(v);

/** Python's repr() of a parsed JSON value (objects are OrderedDicts under simple_salesforce). */
function pyRepr(v: unknown): string {
  if (typeof v === 'string') return pyStrRepr(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (isObject(v)) return `OrderedDict({${Object.entries(v).map(([k, x]) => `${pyStrRepr(k)}: ${pyRepr(x)}`).join(', ')}})`;
  return pyStr(v);
}

/** Python's str() of a parsed JSON value. */
export function pyStr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (isLosslessNumber(v)) return pyNumber(v.value);
  if (typeof v === 'number') return pyNumber(String(v));
  if (typeof v === 'string') return v;
  return pyRepr(v);
}

/** ElementTree's escaping of element text. */
const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The platform's _xml_for_record: ET.tostring(root, encoding="utf-8", xml_declaration=True). */
export function xmlForRecord(record: SfRecord): string {
  const items: string[] = [];
  const walk = (data: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(data)) {
      if (isObject(value)) walk(value, `${prefix}${key}.`);
      else items.push(`<item>${xmlText(`${prefix}${key}: ${pyStr(value)}`)}</item>`);
    }
  };
  walk(record, '');
  return `<?xml version='1.0' encoding='utf-8'?>\n${items.length ? `<root>${items.join('')}</root>` : '<root />'}`;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const p2 = (n: number) => String(n).padStart(2, '0');

/** email.utils.formatdate(timestamp): UTC, zone written "-0000". */
export function formatdate(ms: number): string {
  const d = new Date(ms);
  return `${DAYS[d.getUTCDay()]}, ${p2(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCFullYear()).padStart(4, '0')} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} -0000`;
}

/** A Salesforce datetime ("2023-08-20T14:34:16.000+0000") in ms since the epoch; NaN when unreadable. */
export function salesforceTime(v: unknown): number {
  if (typeof v !== 'string') return NaN;
  return Date.parse(v.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
}

/** textwrap.dedent of a template whose first line has no indent: whitespace-only lines emptied. */
const dedent = (s: string) => s.split('\n').map((l) => (/^[ \t]+$/.test(l) ? '' : l)).join('\n');

/** The platform's _eml_for_record (EMAIL_TEMPLATE.substitute, then dedent), headers ended by a blank line. */
export function emlForRecord(email: SfRecord): string {
  const date = salesforceTime(email.MessageDate);
  if (!Number.isFinite(date)) throw new Error(`EmailMessage ${pyStr(email.Id)} has no readable MessageDate (${pyStr(email.MessageDate)})`);
  const f = (k: string) => pyStr(email[k]);
  const boundary = '00000000000095c9b205eff92630';
  return dedent(
    'MIME-Version: 1.0\n' +
      `Date: ${formatdate(date)}\n` +
      `Message-ID: ${f('MessageIdentifier')}\n` +
      `Subject: ${f('Subject')}\n` +
      `From: ${f('FromAddress')}\n` +
      `To: ${f('ToAddress')}\n` +
      `Content-Type: multipart/alternative; boundary="${boundary}"\n\n` +
      `--${boundary}\n` +
      'Content-Type: text/plain; charset="UTF-8"\n\n' +
      `${f('TextBody')}\n` +
      `--${boundary}\n` +
      'Content-Type: text/html; charset="UTF-8"\n\n' +
      `${f('HtmlBody')}\n` +
      `--${boundary}--\n`,
  );
}
