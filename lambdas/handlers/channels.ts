// Notification-channel endpoints (spec §4.6), account scope (/api/v1/notifications/channels) and
// workflow scope (/api/v1/workflows/{workflow_id}/notifications/channels): thin wrappers over
// ChannelService. Delete and verify answer 204 without a body.
import { httpRoute } from '../http/handler';
import { empty, reply } from '../http/response';
import { routeById } from '../routes';
import { channelService, webhookPoster } from '../services/channels';
import type { ChannelScope } from '../domain/channels';
import type { CreateChannelInput, UpdateChannelInput } from '../schemas/channels';

type Params = { workflow_id?: string; channel_id?: string };
type ListQuery = { channel_type: 'webhook' | 'email'; enabled?: boolean };

const scopeOf = (params: unknown): ChannelScope => {
  const wf = (params as Params | undefined)?.workflow_id;
  return wf ? { kind: 'workflow', workflowId: wf } : { kind: 'account' };
};
const channelId = (params: unknown) => String((params as Params).channel_id);

function handlers(prefix: '' | 'workflow_') {
  return {
    create: httpRoute(routeById(`create_${prefix}channel`), async ({ principal, params, body }) =>
      channelService().create(principal, scopeOf(params), body as CreateChannelInput),
    ),
    list: httpRoute(routeById(`list_${prefix}channels`), async ({ principal, params, query }) =>
      channelService().list(principal, scopeOf(params), query as ListQuery),
    ),
    get: httpRoute(routeById(`get_${prefix}channel`), async ({ principal, params }) =>
      channelService().get(principal, scopeOf(params), channelId(params)),
    ),
    update: httpRoute(routeById(`update_${prefix}channel`), async ({ principal, params, body }) =>
      channelService().update(principal, scopeOf(params), channelId(params), body as UpdateChannelInput),
    ),
    remove: httpRoute(routeById(`delete_${prefix}channel`), async ({ principal, params }) => {
      await channelService().delete(principal, scopeOf(params), channelId(params));
      return reply(empty(204));
    }),
    test: httpRoute(routeById(`test_${prefix}channel`), async ({ principal, params }) =>
      channelService().sendTest(principal, scopeOf(params), channelId(params), webhookPoster()),
    ),
    verify: httpRoute(routeById(`verify_${prefix}channel`), async ({ principal, params, body }) => {
      await channelService().verify(principal, scopeOf(params), channelId(params), (body as { code: string }).code);
      return reply(empty(204));
    }),
  };
}

const account = handlers('');
const workflow = handlers('workflow_');

export const createChannel = account.create;
export const listChannels = account.list;
export const getChannel = account.get;
export const updateChannel = account.update;
export const deleteChannel = account.remove;
export const verifyChannel = account.verify;
export const testChannel = account.test;

export const createWorkflowChannel = workflow.create;
export const listWorkflowChannels = workflow.list;
export const getWorkflowChannel = workflow.get;
export const updateWorkflowChannel = workflow.update;
export const deleteWorkflowChannel = workflow.remove;
export const verifyWorkflowChannel = workflow.verify;
export const testWorkflowChannel = workflow.test;
