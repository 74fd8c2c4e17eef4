// The shared error vocabulary, a leaf (it imports nothing): the engine, the connectors and the domain
// throw these typed errors, and the HTTP layer maps each class to a status code in exactly one place
// (lambdas/http/errors.ts).

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
}

export class DomainError extends Error {
  readonly status: number = 400;
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** 422 with the FastAPI-style `{"detail":[{loc,msg,type}]}` body. */
export class ValidationError extends DomainError {
  override readonly status = 422;
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; ') || 'validation error');
  }
  static single(loc: (string | number)[], msg: string, type = 'value_error', input?: unknown): ValidationError {
    return new ValidationError([{ loc, msg, type, ...(input !== undefined ? { input } : {}) }]);
  }
}

export class BadRequest extends DomainError { override readonly status = 400; }
export class Unauthorized extends DomainError { override readonly status = 401; }
export class Forbidden extends DomainError { override readonly status = 403; }
export class NotFound extends DomainError { override readonly status = 404; }
export class MethodNotAllowed extends DomainError { override readonly status = 405; }
export class Conflict extends DomainError { override readonly status = 409; }
export class PayloadTooLarge extends DomainError { override readonly status = 413; }
export class UnsupportedMediaType extends DomainError { override readonly status = 415; }
/** A document the engine cannot read: corrupt, encrypted, unsupported content. */
export class UnprocessableDocument extends DomainError { override readonly status = 422; }
export class RateLimited extends DomainError {
  override readonly status = 429;
  constructor(message: string, readonly retryAfterSeconds = 1) {
    super(message);
  }
}
/** An external store (a connector's source or destination) refused or failed an operation. */
export class ConnectorFailure extends DomainError { override readonly status = 424; }
export class ServiceUnavailable extends DomainError { override readonly status = 503; }
