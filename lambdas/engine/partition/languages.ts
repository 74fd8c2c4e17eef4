// Language detection to ISO 639-3 codes (franc-min, trigram models of ~80 languages, MIT) plus a
// script check for CJK and other scripts franc-min's trigram profiles mix up on short text. Like the
// open-source library: text under five words that is plain ASCII is taken as English.
import { franc, francAll } from 'franc-min';

/** franc's codes that the open-source library reports differently. */
const CODE_FIXES: Record<string, string> = { cmn: 'zho', arb: 'ara', pes: 'fas', zlm: 'msa', ekk: 'est', lvs: 'lav', azj: 'aze', uzn: 'uzb', npi: 'nep', khk: 'mon', swh: 'swa', ydd: 'yid' };

const SCRIPTS: [RegExp, string][] = [
  [/[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]/gu, 'kor'],
  [/[\u3040-\u30ff]/gu, 'jpn'],
  [/[\u4e00-\u9fff]/gu, 'zho'],
  [/[\u0e00-\u0e7f]/gu, 'tha'],
  [/[\u0590-\u05ff]/gu, 'heb'],
  [/[\u0370-\u03ff]/gu, 'ell'],
];

const MAX_SAMPLE = 20_000;

/**
 * Languages of a text, most likely first: scripts that make up a sizeable share of the letters
 * (e.g. Korean next to English), then franc's best guess for the rest.
 */
export function detectLanguages(text: string): string[] {
  const sample = text.length > MAX_SAMPLE ? text.slice(0, MAX_SAMPLE) : text;
  const trimmed = sample.trim();
  if (!trimmed) return ['eng'];
  if (trimmed.split(/\s+/).length < 5 && /^[\x00-\x7f]*$/.test(trimmed)) return ['eng'];
  const letters = (trimmed.match(/\p{L}/gu) ?? []).length || 1;
  const found: { code: string; share: number }[] = [];
  let rest = trimmed;
  const counts = new Map<string, number>();
  for (const [re, code] of SCRIPTS) {
    const n = (trimmed.match(re) ?? []).length;
    if (n) { counts.set(code, n); rest = rest.replace(re, ' '); }
  }
  // Han characters are Japanese next to kana and Korean (Hanja) inside Hangul text; Chinese otherwise.
  const han = counts.get('zho') ?? 0, kana = counts.get('jpn') ?? 0, hangul = counts.get('kor') ?? 0;
  if (han && kana >= 0.05 * (han + kana)) { counts.set('jpn', kana + han); counts.delete('zho'); }
  else if (han && hangul >= han) { counts.set('kor', hangul + han); counts.delete('zho'); }
  for (const [code, n] of counts) if (n / letters > 0.05) found.push({ code, share: n / letters });
  const latin = (rest.match(/\p{L}/gu) ?? []).length;
  if (latin / letters > 0.1 && latin >= 20) {
    let code = franc(rest, { minLength: 10 });
    if (code === 'und') code = 'eng';
    // franc-min confuses short English text with neighbours; prefer English when close.
    if (code !== 'eng' && rest.length < 400) {
      const all = francAll(rest, { minLength: 10 });
      const eng = all.find(([c]) => c === 'eng');
      if (eng && eng[1] > 0.9) code = 'eng';
    }
    found.push({ code: CODE_FIXES[code] ?? code, share: latin / letters });
  }
  if (found.length === 0) return ['eng'];
  found.sort((a, b) => b.share - a.share);
  return [...new Set(found.map((f) => f.code))];
}

/**
 * Sets metadata.languages on elements that have none, as the open-source library does: the
 * requested languages when the caller named some; otherwise, with `perElement`
 * (detect_language_per_element), each element's own text detected (an element without text takes
 * the document's); otherwise the languages detected on the document's text (its first 20,000
 * characters).
 */
export function applyLanguages(elements: { text: string; metadata: { languages?: string[] } }[], requested: string[], perElement: boolean): void {
  let doc: string[] | undefined = requested.length ? requested : undefined;
  const docLanguages = (): string[] => {
    if (!doc) {
      const sample: string[] = [];
      let n = 0;
      for (const el of elements) {
        if (!el.text) continue;
        sample.push(el.text);
        n += el.text.length;
        if (n > MAX_SAMPLE) break;
      }
      doc = detectLanguages(sample.join('\n'));
    }
    return doc;
  };
  for (const el of elements) {
    if (el.metadata.languages?.length) continue;
    el.metadata.languages = !requested.length && perElement && el.text.trim() ? detectLanguages(el.text) : docLanguages();
  }
}

/** Tesseract traineddata name for an ISO 639-3 (or 639-1 / tesseract) code. */
export function tesseractCode(code: string): string {
  const c = code.trim().toLowerCase();
  const map: Record<string, string> = {
    en: 'eng', fr: 'fra', de: 'deu', es: 'spa', it: 'ita', pt: 'por', nl: 'nld', ko: 'kor', ja: 'jpn',
    zh: 'chi_sim', zho: 'chi_sim', cmn: 'chi_sim', ru: 'rus', ar: 'ara', id: 'ind', et: 'est',
  };
  return map[c] ?? c;
}

/** ISO 639-3 code for a tesseract or 639-1 code (what metadata.languages reports). */
export function iso639_3(code: string): string {
  const c = code.trim().toLowerCase();
  if (c === 'chi_sim' || c === 'chi_tra') return 'zho';
  const map: Record<string, string> = { en: 'eng', fr: 'fra', de: 'deu', es: 'spa', it: 'ita', pt: 'por', nl: 'nld', ko: 'kor', ja: 'jpn', zh: 'zho', ru: 'rus', ar: 'ara', id: 'ind', et: 'est' };
  return map[c] ?? c;
}
