// Every key of the single table is built here, so prefixes live in one place.
// Every item of an account starts with ACCT#<account>: tenancy is structural.

import { createHash } from 'node:crypto';

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
  /** Per-file progress of a job: node states and processing attempts (domain/job-files.ts). */
  jobFile: (accountId: string, jobId: string, fileId: string) => ({ PK: `ACCT#${accountId}`, SK: `JOBFILE#${jobId}#${fileId}` }),
  jobFilePrefix: (jobId: string) => `JOBFILE#${jobId}#`,
  /**
   * What a workflow last delivered of each source document (domain/source-state.ts). The document key
   * is hashed: source keys can be longer than a sort key may be, and may hold any character.
   */
  sourceDoc: (accountId: string, workflowId: string, docKey: string) => ({
    PK: `ACCT#${accountId}`,
    SK: `SRCDOC#${workflowId}#${createHash('sha256').update(docKey).digest('base64url')}`,
  }),
  sourceDocPrefix: (workflowId: string) => `SRCDOC#${workflowId}#`,
  /**
   * A stream source's document (a kafka message) a run listed but did not deliver, kept to be
   * processed again by the next run (the stream will not list it again). Under the workflow's
   * SRCDOC prefix, so deleting the workflow forgets these with its states ('#' never occurs in a hash).
   */
  sourceRetry: (accountId: string, workflowId: string, docKey: string) => ({
    PK: `ACCT#${accountId}`,
    SK: `SRCDOC#${workflowId}#retry#${createHash('sha256').update(docKey).digest('base64url')}`,
  }),
  sourceRetryPrefix: (workflowId: string) => `SRCDOC#${workflowId}#retry#`,
  /**
   * A deleted workflow whose source-document state is still being forgotten: one shared partition
   * (deletions are rare), swept by the one-minute tick until the workflow's state is gone.
   */
  stateCleanup: (accountId: string, workflowId: string) => ({ PK: 'CLEANUP#SRCDOC', SK: `${accountId}#${workflowId}` }),
  stateCleanupPartition: 'CLEANUP#SRCDOC',
  /** Per-account concurrency gate and launch spacing. */
  gate: (accountId: string) => ({ PK: `ACCT#${accountId}`, SK: 'GATE' }),
  /** Notifications of an account, time-ordered (ULID sort ids); read flags are per user. */
  notification: (accountId: string, sortId: string) => ({ PK: `ACCT#${accountId}#NOTES`, SK: `NOTE#${sortId}` }),
  // Notification channels (spec §4.6): one partition per account; the scope is part of the sort
  // key, so a scope's list (≤ 50) and the fan-out of an event (account scope + one workflow scope)
  // are prefix queries. A per-scope counter item enforces the 50-channel limit atomically.
  channel: (accountId: string, scope: string, id: string) => ({ PK: `ACCT#${accountId}`, SK: `CHANNEL#${scope}#${id}` }),
  channelPrefix: (scope: string) => `CHANNEL#${scope}#`,
  channelCount: (accountId: string, scope: string) => ({ PK: `ACCT#${accountId}`, SK: `CHANNELCOUNT#${scope}` }),
  /** Per-account count of a limited kind (domain/quotas.ts). */
  quota: (accountId: string, kind: string) => ({ PK: `ACCT#${accountId}`, SK: `QUOTA#${kind}` }),
  /** Connection checks asked for in one UTC minute. */
  checkRate: (accountId: string, minute: string) => ({ PK: `ACCT#${accountId}`, SK: `CHECKRATE#${minute}` }),
  /** Verification e-mails sent in one UTC hour, per account (`ACCT#…`) or per recipient (`MAILTO#<sha-256>`). */
  mailRate: (owner: string, hour: string) => ({ PK: owner, SK: `MAILRATE#${hour}` }),
  /** Channel scopes: the whole account, or one workflow. */
  accountScope: 'ACCOUNT',
  workflowScope: (workflowId: string) => `WF#${workflowId}`,
  // ---- notification inboxes (per user; spec §4.7) ----
  /** A user's inbox partition: items `NOTE#<id>` (ids are time-ordered, so SK order = time order) and counters. */
  inbox: (accountId: string, userId: string) => `ACCT#${accountId}#USER#${userId}#INBOX`,
  inboxItem: (accountId: string, userId: string, id: string) => ({ PK: `ACCT#${accountId}#USER#${userId}#INBOX`, SK: `NOTE#${id}` }),
  inboxPrefix: 'NOTE#',
  inboxSortKey: (id: string) => `NOTE#${id}`,
  /** GSI2 partition (sparse): only unread items carry GSI2PK/GSI2SK; marking read removes them. */
  inboxUnreadIndex: (accountId: string, userId: string) => `ACCT#${accountId}#USER#${userId}#UNREAD`,
  /** GSI1 partition of a user's items of one workflow (items without a workflow are not indexed). */
  inboxWorkflowIndex: (accountId: string, userId: string, workflowId: string) => `ACCT#${accountId}#USER#${userId}#WF#${workflowId}`,
  /** Unread counters: one per user, one per (user, workflow); attribute `unread`. */
  unreadCounter: (accountId: string, userId: string, workflowId?: string | null) => ({
    PK: `ACCT#${accountId}#USER#${userId}#INBOX`,
    SK: workflowId ? `UNREAD#WF#${workflowId}` : 'UNREAD',
  }),
  /** Read marks of a user's inbox, one item per window of event time (see domain/read-marks.ts). */
  readMarks: (accountId: string, userId: string, window: string) => ({ PK: `ACCT#${accountId}#USER#${userId}#INBOX`, SK: `READ#${window}` }),
  /** The deployment's cursor-signing key, sealed by the secret box (not tenant data). */
  notificationCursorKey: { PK: 'SYSTEM#NOTIFICATIONS', SK: 'CURSOR_KEY' },
  /** Presigned uploads of large job inputs (one use; the object lives under jobs/uploads/). */
  upload: (accountId: string, uploadId: string) => ({ PK: `ACCT#${accountId}`, SK: `UPLOAD#${uploadId}` }),
  uploadPrefix: 'UPLOAD#',
  uploadObject: (accountId: string, uploadId: string) => `jobs/uploads/${accountId}/${uploadId}`,
  /** A partition result too large to return inline to an MCP client (under jobs/: it expires with job data). */
  partitionResultObject: (accountId: string, resultId: string) => `jobs/partition-results/${accountId}/${resultId}.json`,
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
  upload: 'Upload',
  job: 'Job',
  workflow: 'Workflow',
  jobFailure: 'JobFailure',
  jobFile: 'JobFile',
  sourceDoc: 'SourceDocument',
  sourceRetry: 'SourceDocumentRetry',
  stateCleanup: 'SourceStateCleanup',
  gate: 'Gate',
  notification: 'Notification',
  inboxNotification: 'InboxNotification',
  unreadCounter: 'UnreadCounter',
  readMarks: 'ReadMarks',
  cursorKey: 'CursorKey',
  channel: 'Channel',
  channelCount: 'ChannelCount',
  mailRate: 'MailRate',
  quota: 'Quota',
} as const;
