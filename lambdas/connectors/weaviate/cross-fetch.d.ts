// Type stand-in for `cross-fetch`, which weaviate-client's typings reach through graphql-request.
// The real package's typings pull in the DOM library (/// <reference lib="dom" />) and so change the
// global Blob/fetch types of the whole project; this declares the same exports from Node's globals.
// Mapped by tsconfig "paths"; types only (the runtime package is untouched).
declare const fetchImpl: typeof globalThis.fetch;
export { fetchImpl as fetch };
export declare const Request: typeof globalThis.Request;
export declare const Response: typeof globalThis.Response;
export declare const Headers: typeof globalThis.Headers;
export default fetchImpl;
