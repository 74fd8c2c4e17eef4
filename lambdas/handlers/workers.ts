// SQS consumers. Each reports per-message failures (partial batch response) so one bad message
// is retried, then dead-lettered, without holding back the rest of the batch. The records of a batch
// (≤ 10) run at once: a check that hangs until its timeout does not hold the other nine behind it.
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { connectorService } from '../services/connectors';
import type { ConnectionCheckMessage } from '../domain/connectors';
import { errorFields, log } from '../logger';

export async function connectionCheckWorker(event: SQSEvent): Promise<SQSBatchResponse> {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  await Promise.all(event.Records.map(async (record) => {
    try {
      const msg = JSON.parse(record.body) as ConnectionCheckMessage;
      const result = await connectorService().runCheck(msg);
      log.info('connection check finished', { connectorId: msg.connectorId, kind: msg.kind, status: result?.status, reason: result?.reason });
    } catch (err) {
      log.error('connection check failed to run', { messageId: record.messageId, ...errorFields(err) });
      failures.push({ itemIdentifier: record.messageId });
    }
  }));
  return { batchItemFailures: failures };
}
