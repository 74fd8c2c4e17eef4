// The reason in a Step Functions Catch's error output ({Error, Cause}) for a failed-files entry or a
// job message. A Lambda function's error arrives as Error = its type and Cause = the JSON the Lambda
// returned ({errorType, errorMessage, trace}); an invocation that ran out of time as Sandbox.Timedout
// with "RequestId: … Error: Task timed out after 900.00 seconds"; a crashed runtime as
// Runtime.ExitError the same way; a state's own error (States.Timeout, a Fail state) with a plain
// Cause. Only the message is kept: a stack trace is nothing a user of the job should read.
export interface StepError {
  Error?: string;
  Cause?: string;
}

export function stepErrorReason(error: StepError | undefined, fallback: string): string {
  const cause = error?.Cause;
  if (!cause) return error?.Error ?? fallback;
  let parsed: unknown;
  try {
    parsed = JSON.parse(cause);
  } catch {
    return cause;
  }
  const message = (parsed as { errorMessage?: unknown } | null)?.errorMessage;
  if (typeof message !== 'string') return cause;
  return message.replace(/^RequestId: \S+ Error: /, '');
}
