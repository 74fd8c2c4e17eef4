// A call that must be refused as a request validation error.
import assert from 'node:assert/strict';
import { ValidationError } from '../../lambdas/errors';

/** The issues of the ValidationError (status 422) that `fn` must throw. */
export function validationIssues(fn: () => unknown): ValidationError['issues'] {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ValidationError, `expected ValidationError, got ${String(err)}`);
    assert.equal(err.status, 422);
    return err.issues;
  }
  assert.fail('expected a ValidationError');
}
