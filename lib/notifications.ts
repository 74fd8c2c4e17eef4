// Notification e-mail: bindEmailSender() lets a function send through SES v2 (ses:SendEmail on the
// account's verified identities in the stack's region) and sets SES_FROM_ADDRESS, in one call.
// The from address must be (or belong to a domain that is) a verified SES identity; in the SES
// sandbox recipients must be verified too.
import { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { setConfigEnv } from './base-function';

export function bindEmailSender(fn: lambda.Function, fromAddress?: string): void {
  const stack = Stack.of(fn);
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      actions: ['ses:SendEmail'],
      resources: [
        stack.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' }),
        stack.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: '*' }),
      ],
    }),
  );
  if (fromAddress) setConfigEnv(fn, 'SES_FROM_ADDRESS', fromAddress);
}
