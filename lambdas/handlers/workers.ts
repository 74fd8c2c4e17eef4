// SQS consumers. Each reports per-message failures (partial batch response) so one bad message
// is retried, then dead-lettered, without holding back the rest of the batch.
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { connectorService } from '../services/connectors';
import type { ConnectionCheckMessage } from '../domain/connectors';
import { errorFields, log } from '../logger';

export async function connectionCheckWorker(event: SQSEvent): Promise<SQSBatchResponse> {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      const msg = JSON.parse(record.body) as ConnectionCheckMessage;
      const result = await connectorService().runCheck(msg);
      log.info('connection check finished', { connectorId: msg.connectorId, kind: msg.kind, status: result?.status, reason: result?.reason });
    } catch (err) {
      log.error('connection check failed to run', { messageId: record.messageId, ...errorFields(err) });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
}
