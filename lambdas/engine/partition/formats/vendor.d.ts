// Minimal typings for npm packages that ship none.
declare module 'word-extractor' {
  /** `filterUnicode` (default true) turns curly quotes, dashes and en/em spaces into ASCII. */
  interface TextOptions { filterUnicode?: boolean }
  interface WordDocument {
    getBody(options?: TextOptions): string;
    getHeaders(options?: TextOptions & { includeFooters?: boolean }): string;
    getFooters(options?: TextOptions): string;
    getFootnotes(options?: TextOptions): string;
    getEndnotes(options?: TextOptions): string;
    getTextboxes(options?: TextOptions & { includeHeadersAndFooters?: boolean; includeBody?: boolean }): string;
  }
  export default class WordExtractor {
    extract(source: string | Buffer): Promise<WordDocument>;
  }
}
