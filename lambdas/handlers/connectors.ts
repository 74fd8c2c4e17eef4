// Source and destination connector endpoints (spec §4.1, §4.2). Thin: validated input in, one
// ConnectorService call, record out.
import { httpRoute } from '../http/handler';
import { routeById } from '../routes';
import { connectorService } from '../services/connectors';
import { assertKnownType } from '../domain/connectors';
import { connectorCatalog } from '../adapters/connector-catalog';
import type { ConnectorKind } from '../data/keys';

function handlersFor(kind: ConnectorKind) {
  const plural = kind === 'source' ? 'sources' : 'destinations';
  const idOf = (params: Record<string, string>) => params[`${kind}_id`]!;
  const typeFilter = kind === 'source' ? 'source_type' : 'destination_type';
  const svc = () => connectorService();
  return {
    list: httpRoute(routeById(`list_${plural}`), async ({ principal, query }) => {
      const type = (query as Record<string, string | undefined>)[typeFilter];
      if (type) assertKnownType(connectorCatalog(), kind, type, ['query', typeFilter]);
      return svc().list(principal, kind, type);
    }),
    create: httpRoute(routeById(`create_${kind}`), async ({ principal, body }) => {
      const input = body as { name: string; type: string; config: Record<string, unknown> };
      assertKnownType(connectorCatalog(), kind, input.type, ['body', 'type']);
      return svc().create(principal, kind, input);
    }),
    get: httpRoute(routeById(`get_${kind}`), async ({ principal, params }) =>
      svc().get(principal, kind, idOf(params as Record<string, string>)),
    ),
    update: httpRoute(routeById(`update_${kind}`), async ({ principal, params, body }) =>
      svc().update(principal, kind, idOf(params as Record<string, string>), body as { config: unknown }),
    ),
    remove: httpRoute(routeById(`delete_${kind}`), async ({ principal, params }) =>
      svc().delete(principal, kind, idOf(params as Record<string, string>)),
    ),
    createCheck: httpRoute(routeById(`create_connection_check_${plural}`), async ({ principal, params }) =>
      svc().requestCheck(principal, kind, idOf(params as Record<string, string>)),
    ),
    getCheck: httpRoute(routeById(`get_connection_check_${plural}`), async ({ principal, params }) =>
      svc().latestCheck(principal, kind, idOf(params as Record<string, string>)),
    ),
  };
}

const sources = handlersFor('source');
const destinations = handlersFor('destination');

export const listSources = sources.list;
export const createSource = sources.create;
export const getSource = sources.get;
export const updateSource = sources.update;
export const deleteSource = sources.remove;
export const createSourceCheck = sources.createCheck;
export const getSourceCheck = sources.getCheck;

export const listDestinations = destinations.list;
export const createDestination = destinations.create;
export const getDestination = destinations.get;
export const updateDestination = destinations.update;
export const deleteDestination = destinations.remove;
export const createDestinationCheck = destinations.createCheck;
export const getDestinationCheck = destinations.getCheck;
