// EventBridge stand-in: PutEvents over the AWS JSON 1.1 protocol, routed by the very rule patterns
// the CDK deploys (lambdas/events.ts) to the same Lambda handlers, asynchronously, as EventBridge
// does. Step Functions status changes from the local stand-in arrive through `emit`. An event's
// `time` has whole seconds, as EventBridge stamps it (`2022-04-30T17:00:00Z`): the entry's `Time`
// when given, else the moment of the call.
import type { Context, EventBridgeEvent } from 'aws-lambda';
import { EVENT_RULES, matchesPattern } from '../../lambdas/events';
import { lambdaContext, loadHandler } from '../handlers';
import { startAwsJsonServer } from './aws-json-server';
import type { EmulatorCredentials } from './sigv4-guard';

type EventHandler = (event: EventBridgeEvent<string, unknown>, context: Context) => Promise<unknown>;

/** An event's `time` as EventBridge writes it: ISO 8601 UTC, whole seconds, no fraction. */
export function eventBridgeTime(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A PutEvents entry's `Time` (the SDK sends epoch seconds on this protocol), or undefined. */
function entryTime(time: unknown): Date | undefined {
  const at = typeof time === 'number' ? new Date(time * 1000) : typeof time === 'string' ? new Date(time) : undefined;
  return at && !Number.isNaN(at.getTime()) ? at : undefined;
}

export async function startEventBridge(opts: { region: string; port?: number; credentials?: EmulatorCredentials }): Promise<{
  endpoint: string;
  emit(source: string, detailType: string, detail: Record<string, unknown>): Promise<void>;
  /** Resolves when every delivery started so far has finished (tests). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}> {
  const inflight = new Set<Promise<unknown>>();

  const deliver = (source: string, detailType: string, detail: unknown, bus = 'default', at = new Date()) => {
    const event = {
      version: '0',
      id: crypto.randomUUID(),
      'detail-type': detailType,
      source,
      account: '000000000000',
      time: eventBridgeTime(at),
      region: opts.region,
      resources: [],
      detail,
      'event-bus-name': bus,
    };
    for (const rule of EVENT_RULES) {
      if (!matchesPattern(event as unknown as Record<string, unknown>, rule.pattern)) continue;
      const p = (async () => {
        const handler = await loadHandler<EventHandler>(rule.target);
        // EventBridge retries failed Lambda deliveries; two attempts are enough locally.
        for (let attempt = 1; attempt <= 2; attempt++) {
          try {
            await handler(event as EventBridgeEvent<string, unknown>, lambdaContext(rule.name) as unknown as Context);
            return;
          } catch (err) {
            if (attempt === 2) console.error(JSON.stringify({ level: 'error', msg: 'event delivery failed', rule: rule.name, error: (err as Error).message }));
          }
        }
      })();
      inflight.add(p);
      void p.finally(() => inflight.delete(p));
    }
    return event.id;
  };

  const server = await startAwsJsonServer(
    'application/x-amz-json-1.1',
    {
      PutEvents: (input: { Entries: { Source: string; DetailType: string; Detail: string; EventBusName?: string; Time?: unknown }[] }) => {
        const entries = input.Entries.map((e) => {
          try {
            return { EventId: deliver(e.Source, e.DetailType, JSON.parse(e.Detail || '{}'), e.EventBusName, entryTime(e.Time)) };
          } catch {
            return { ErrorCode: 'MalformedDetail', ErrorMessage: 'Detail is not valid JSON' };
          }
        });
        return { FailedEntryCount: entries.filter((e) => 'ErrorCode' in e).length, Entries: entries };
      },
    },
    opts.port,
    opts.credentials && { credentials: opts.credentials, service: 'events' },
  );

  return {
    endpoint: server.endpoint,
    emit: async (source, detailType, detail) => {
      deliver(source, detailType, detail);
    },
    idle: async () => {
      while (inflight.size) await Promise.allSettled([...inflight]);
    },
    stop: async () => {
      await Promise.allSettled([...inflight]);
      await server.stop();
    },
  };
}
