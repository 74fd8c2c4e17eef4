// The single DynamoDB table: key schema and indexes. Read by the CDK data construct and by the
// local bootstrap (local/bootstrap.ts), so both runtimes create the very same table.

export interface IndexDefinition {
  name: string;
  partitionKey: string;
  sortKey: string;
}

export const TABLE_DEFINITION = {
  partitionKey: 'PK',
  sortKey: 'SK',
  /** GSI1: secondary listing within an account (jobs by workflow). GSI2: by status / unread. */
  indexes: [
    { name: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
    { name: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK' },
  ] as IndexDefinition[],
  /** Items with this epoch-seconds attribute expire (TTL on AWS; filtered on read locally). */
  ttlAttribute: 'expiresAt',
} as const;
