// The KMS key that encrypts connector secrets at rest (lambdas/adapters/secret-box.ts seals values
// with Encrypt and opens them with Decrypt). Rotation on. bindSecretsKey() grants exactly those two
// actions on this key and sets KMS_KEY_ID in one call.
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { setConfigEnv } from './base-function';

export const SECRETS_KEY_ACTIONS = ['kms:Encrypt', 'kms:Decrypt'];

export interface SecretsKeyProps {
  /** Default RETAIN: losing the key loses every stored secret. */
  removalPolicy?: RemovalPolicy;
}

export class SecretsKey extends Construct {
  readonly key: kms.Key;

  constructor(scope: Construct, id: string, props: SecretsKeyProps = {}) {
    super(scope, id);
    this.key = new kms.Key(this, 'Key', {
      description: 'Encrypts connector secrets stored in the workflow service table',
      enableKeyRotation: true,
      pendingWindow: Duration.days(30),
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
    });
  }

  /** Grants kms:Encrypt and kms:Decrypt (or Decrypt only) on this key and sets KMS_KEY_ID. */
  bindSecretsKey(fn: lambda.Function, mode: 'decrypt' | 'both' = 'both'): void {
    this.key.grant(fn, ...(mode === 'decrypt' ? ['kms:Decrypt'] : SECRETS_KEY_ACTIONS));
    setConfigEnv(fn, 'KMS_KEY_ID', this.key.keyArn);
  }
}
