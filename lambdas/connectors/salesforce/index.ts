// The salesforce family: the source (source.ts) over the REST API client (client.ts), the platform's
// record documents (documents.ts) and the local stand-in tests use (test-server.ts).
export { salesforceSource, ACCEPTED_CATEGORIES } from './source';
