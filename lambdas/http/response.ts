// Lambda proxy responses.
export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  isBase64Encoded?: boolean;
}

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return { statusCode, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

export function text(statusCode: number, body: string, contentType: string, headers: Record<string, string> = {}): HttpResponse {
  return { statusCode, headers: { 'content-type': contentType, ...headers }, body };
}

export function empty(statusCode = 204): HttpResponse {
  return { statusCode, headers: {}, body: '' };
}

/** Handlers return either a plain value (sent as JSON with the route's success status) or a full response. */
export class Reply {
  constructor(readonly response: HttpResponse) {}
}

export function reply(response: HttpResponse): Reply {
  return new Reply(response);
}
