// The single DynamoDB table, built from lambdas/data/table-definition.ts (the local bootstrap reads
// the same definition). On-demand capacity, point-in-time recovery, TTL on the definition's attribute.
// bindTable() is the only way a function gets access: it grants item-level actions on the table and
// its named indexes and sets TABLE_NAME in the same call.
import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { TABLE_DEFINITION } from '../lambdas/data/table-definition';
import { setConfigEnv } from './base-function';

export type TableAccess = 'read' | 'readwrite';

/** Item-level actions only: no Scan (every access pattern is a key or index query), no table admin. */
export const TABLE_ACTIONS: Record<TableAccess, string[]> = {
  read: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'],
  readwrite: [
    'dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem',
    'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem',
  ],
};

export interface DataTableProps {
  /** Default RETAIN: a stack deletion must not take the data with it. */
  removalPolicy?: RemovalPolicy;
}

export class DataTable extends Construct {
  readonly table: dynamodb.Table;

  constructor(scope: Construct, id: string, props: DataTableProps = {}) {
    super(scope, id);
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    const str = (name: string) => ({ name, type: dynamodb.AttributeType.STRING });
    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: str(TABLE_DEFINITION.partitionKey),
      sortKey: str(TABLE_DEFINITION.sortKey),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TABLE_DEFINITION.ttlAttribute,
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      deletionProtection: removalPolicy === RemovalPolicy.RETAIN,
      removalPolicy,
    });
    for (const index of TABLE_DEFINITION.indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: str(index.partitionKey),
        sortKey: str(index.sortKey),
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }
  }

  /**
   * Grants item access on the table and its named indexes (not `index/*`: an index added later is
   * granted by adding it to the definition) and sets TABLE_NAME.
   */
  bindTable(fn: lambda.Function, access: TableAccess = 'readwrite'): void {
    const indexes = TABLE_DEFINITION.indexes.map((i) => `${this.table.tableArn}/index/${i.name}`);
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: TABLE_ACTIONS[access], resources: [this.table.tableArn, ...indexes] }));
    setConfigEnv(fn, 'TABLE_NAME', this.table.tableName);
  }
}
