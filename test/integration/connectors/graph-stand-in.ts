// The Microsoft Graph stand-in the OneDrive/SharePoint and Outlook source tests share.
import { before } from 'node:test';
import { envScope, restoreAfter } from '../../support/connector-tests';
import { selfSignedCert, startOneDriveStandIn, type OneDriveStandIn } from '../../../lambdas/connectors/onedrive/test-server';
import { graphSources, type GraphSources } from '../../../lambdas/connectors/onedrive/test-server-sources';

/**
 * Before the file: the Graph stand-in over TLS (its CA trusted, GRAPH_API_ENDPOINT at it) serving
 * sources paged by 2, handed to `bind`, then `seed`; after: the environment put back, the stand-in
 * stopped. Gives the environment scope (CA, endpoint, outbound policy) the tests change.
 */
export function graphStandIn(bind: (od: OneDriveStandIn, src: GraphSources) => void, seed: () => void) {
  const env = envScope(['CONNECTOR_CA_FILE', 'GRAPH_API_ENDPOINT', 'CONNECTORS_DENY_PRIVATE_NETWORKS']);
  let od: OneDriveStandIn | undefined;
  before(async () => {
    const tls = selfSignedCert();
    env.set({ CONNECTOR_CA_FILE: tls.certFile });
    const src = graphSources({ pageSize: 2 });
    od = await startOneDriveStandIn({ tls, routes: src.routes });
    env.set({ GRAPH_API_ENDPOINT: od.url });
    bind(od, src);
    seed();
  });
  restoreAfter(env, () => od);
  return env;
}
