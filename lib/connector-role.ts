// The role connector I/O runs as when it uses runtime credentials (ambient_credentials, or the base of
// a tenant's role_arn without key/secret), so a tenant's connector never acts with a function's own
// role (DESIGN §9, lambdas/connectors/service-boundary.ts). Its policy allows what connectors need
// (object read/write/list on buckets the operator shares with it, sts:AssumeRole to chain into
// tenants' roles) and explicitly denies the service's bucket, table and key and the stack's own roles;
// every session is also assumed with an inline session policy denying the same ARNs. Only the
// functions that do connector I/O (RouteAccess.connectors) are trusted to assume it, and bind() grants
// sts:AssumeRole and sets CONNECTOR_ROLE_ARN and CONNECTOR_DENIED_ARNS in one call.
//
// The role has a fixed name (roleName) and the functions' grants and variables use the ARN built
// from it, not a reference to the role: the functions live in nested stacks, and the role's trust
// policy names their roles, so a reference back from them to the role would be a circular
// dependency between the parent stack and its nested stacks.
import { Aws, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { setConfigEnv } from './base-function';

/** What connectors may do with runtime credentials (on resources the operator's policies allow). */
export const CONNECTOR_ROLE_ACTIONS = ['s3:GetObject', 's3:PutObject', 's3:ListBucket', 's3:GetBucketLocation'];

export interface ConnectorRoleProps {
  /** The functions that do connector I/O: the only principals the role trusts. */
  functions: lambda.Function[];
  /** The service's resources: bucket, table and key ARNs (the bucket's objects and the table's indexes are added). */
  bucketArn: string;
  tableArn: string;
  keyArn: string;
  /** Physical name of the role (at most 64 characters). */
  roleName: string;
}

export class ConnectorRole extends Construct {
  readonly role: iam.Role;
  /** ARNs the role and each of its sessions deny. */
  readonly deniedArns: string[];
  /** The role's ARN built from its name (no reference to the role: see the header). */
  readonly roleArn: string;

  constructor(scope: Construct, id: string, props: ConnectorRoleProps) {
    super(scope, id);
    if (props.functions.length === 0) throw new Error('ConnectorRole needs at least one connector I/O function');
    this.deniedArns = [props.bucketArn, `${props.bucketArn}/*`, props.tableArn, `${props.tableArn}/index/*`, props.keyArn];
    const ownRoles = `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:role/${Stack.of(this).stackName}-*`;
    if (props.roleName.length > 64) throw new Error(`connector role name ${props.roleName} is longer than IAM's 64 characters`);
    this.roleArn = `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:role/${props.roleName}`;
    this.role = new iam.Role(this, 'Role', {
      roleName: props.roleName,
      description: "Connector I/O with runtime credentials: never the service's bucket, table, key or roles",
      assumedBy: new iam.CompositePrincipal(...props.functions.map((fn) => new iam.ArnPrincipal(fn.role!.roleArn))),
      inlinePolicies: {
        ConnectorReach: new iam.PolicyDocument({
          statements: [
            new iam.PolicyStatement({ sid: 'TenantStorage', actions: CONNECTOR_ROLE_ACTIONS, resources: ['*'] }),
            new iam.PolicyStatement({ sid: 'TenantRoles', actions: ['sts:AssumeRole'], resources: ['*'] }),
            new iam.PolicyStatement({ sid: 'NeverTheServiceResources', effect: iam.Effect.DENY, actions: ['*'], resources: this.deniedArns }),
            new iam.PolicyStatement({ sid: 'NeverTheServiceRoles', effect: iam.Effect.DENY, actions: ['sts:AssumeRole', 'iam:*'], resources: [ownRoles] }),
          ],
        }),
      },
    });
    for (const fn of props.functions) this.bind(fn);
  }

  private bind(fn: lambda.Function): void {
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['sts:AssumeRole'], resources: [this.roleArn] }));
    setConfigEnv(fn, 'CONNECTOR_ROLE_ARN', this.roleArn);
    setConfigEnv(fn, 'CONNECTOR_DENIED_ARNS', Stack.of(this).toJsonString(this.deniedArns));
  }
}
