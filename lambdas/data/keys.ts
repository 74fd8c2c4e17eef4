// Every key of the single table is built here, so prefixes live in one place.
// Every item of an account starts with ACCT#<account>: tenancy is structural.

export type ConnectorKind = 'source' | 'destination';

const kindTag = (kind: ConnectorKind) => (kind === 'source' ? 'SOURCE' : 'DESTINATION');

export const keys = {
  account: (accountId: string) => `ACCT#${accountId}`,
  connector: (accountId: string, kind: ConnectorKind, id: string) => ({
    PK: `ACCT#${accountId}`,
    SK: `${kindTag(kind)}#${id}`,
  }),
  connectorPrefix: (kind: ConnectorKind) => `${kindTag(kind)}#`,
  connectionCheck: (accountId: string, kind: ConnectorKind, connectorId: string, checkSortId: string) => ({
    PK: `ACCT#${accountId}`,
    SK: `CHECK#${kindTag(kind)}#${connectorId}#${checkSortId}`,
  }),
  connectionCheckPrefix: (kind: ConnectorKind, connectorId: string) => `CHECK#${kindTag(kind)}#${connectorId}#`,
  workflow: (accountId: string, id: string) => ({ PK: `ACCT#${accountId}`, SK: `WORKFLOW#${id}` }),
  workflowPrefix: 'WORKFLOW#',
  /** GSI1 partition of scheduled workflows, sorted by `${nextRunAt}#${account}#${workflow}`. */
  scheduleIndex: 'SCHEDULE',
  scheduleSortKey: (nextRunAt: string, accountId: string, workflowId: string) => `${nextRunAt}#${accountId}#${workflowId}`,
  job: (accountId: string, jobId: string) => ({ PK: `ACCT#${accountId}`, SK: `JOB#${jobId}` }),
  jobPrefix: 'JOB#',
  jobFailure: (accountId: string, jobId: string, fileId: string) => ({ PK: `ACCT#${accountId}`, SK: `JOBFAIL#${jobId}#${fileId}` }),
  jobFailurePrefix: (jobId: string) => `JOBFAIL#${jobId}#`,
  /** Per-account concurrency gate and launch spacing. */
  gate: (accountId: string) => ({ PK: `ACCT#${accountId}`, SK: 'GATE' }),
  /** Notifications of an account, time-ordered (ULID sort ids); read flags are per user. */
  notification: (accountId: string, sortId: string) => ({ PK: `ACCT#${accountId}#NOTES`, SK: `NOTE#${sortId}` }),
  /** API keys are looked up by hash before the account is known. */
  apiKey: (keyHash: string) => ({ PK: `APIKEY#${keyHash}`, SK: 'APIKEY' }),
  apiKeyIndex: (accountId: string, keyId: string) => ({ PK: `ACCT#${accountId}`, SK: `APIKEYREF#${keyId}` }),
} as const;

/** Entity tags stored on every item (attribute `entity`). */
export const ENTITY = {
  source: 'Source',
  destination: 'Destination',
  connectionCheck: 'ConnectionCheck',
  apiKey: 'ApiKey',
  apiKeyRef: 'ApiKeyRef',
  job: 'Job',
  workflow: 'Workflow',
  jobFailure: 'JobFailure',
  gate: 'Gate',
  notification: 'Notification',
} as const;
