// EventPublisher on an EventBridge bus. Source and detail-type follow lambdas/events.ts.
// EventBridge keeps only the whole second of an event's time, so the precise moment also travels
// in the detail (OCCURRED_AT), where consumers read it back with eventMoment().
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { EventPublisher } from '../domain/ports';
import { EVENT_SOURCE, OCCURRED_AT } from '../events';
import { config } from '../config';
import { sdkLogger } from './aws-clients';
import { log } from '../logger';

let client: EventBridgeClient | undefined;
const eb = () => (client ??= new EventBridgeClient({ logger: sdkLogger, region: config().AWS_REGION }));

export class EventBridgePublisher implements EventPublisher {
  constructor(private readonly busName: string) {}

  async publish(eventType: string, detail: Record<string, unknown>, at = new Date()): Promise<void> {
    const started = Date.now();
    const out = await eb().send(
      new PutEventsCommand({
        Entries: [
          {
            EventBusName: this.busName,
            Source: EVENT_SOURCE,
            DetailType: eventType,
            Time: at,
            Detail: JSON.stringify({ ...detail, [OCCURRED_AT]: at.toISOString() }),
          },
        ],
      }),
    );
    if (out.FailedEntryCount) log.warn('event not accepted by the bus', { eventType, entries: out.Entries });
    log.debug('event published', { eventType, job_id: detail.job_id, ms: Date.now() - started });
  }
}

export function resetPublisherClient(): void {
  client?.destroy();
  client = undefined;
}
