// Notification tools: the user's inbox (NotificationInbox, as the REST routes use it); read flags
// are per user. Filters parsed by the REST routes' own schemas.
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { notificationInbox } from '../services/notifications';
import { routeById } from '../routes';
import { parseOr422 } from '../validation';
import { uuidParam } from '../schemas/common';
import type { MarkReadInput, NotificationListQuery } from '../domain/notification-inbox';
import { addTool, asQuery, READ, type McpContext } from './context';
import { ok } from './results';

export function registerNotificationTools(server: McpServer, ctx: McpContext): void {
  const inbox = () => notificationInbox();

  addTool(server, 'list_notifications', {
    title: 'List notifications',
    description:
      "List the user's notifications (job events: started, completed, failed...), newest first, with a cursor for the next page. " +
      'Use unread_only to see only what is new, and get_unread_count for a quick check.',
    annotations: READ,
  }, z.object({
    workflow_id: z.string().max(100).optional().describe('Only events of this workflow'),
    event_types: z.array(z.string().max(100)).max(20).optional().describe('Only these event types (e.g. job.completed, job.failed)'),
    since: z.string().max(100).optional().describe('Only events at or after this time (ISO 8601)'),
    limit: z.number().int().min(1).max(100).optional().describe('Default 50'),
    cursor: z.string().min(1).max(2000).optional().describe('next_cursor of the previous page'),
    unread_only: z.boolean().optional(),
  }), async (args) => {
    const query = parseOr422(routeById('list_notifications').query!, asQuery(args), ['query']) as NotificationListQuery;
    return ok(await inbox().list(ctx.principal, query));
  });

  addTool(server, 'get_unread_count', {
    title: 'Count unread notifications',
    description: "The number of the user's unread notifications, optionally of one workflow.",
    annotations: READ,
  }, z.object({ workflow_id: z.string().max(100).optional() }), async ({ workflow_id }) =>
    ok(await inbox().unreadCount(ctx.principal, workflow_id)));

  addTool(server, 'get_notification', {
    title: 'Get a notification',
    description: 'Get one notification by id: the job event (type, job, workflow, time, message) and whether this user has read it.',
    annotations: READ,
  }, z.object({ notification_id: uuidParam }), async ({ notification_id }) => ok(await inbox().get(ctx.principal, notification_id)));

  addTool(server, 'mark_notifications_read', {
    title: 'Mark notifications read',
    description: 'Mark notifications read for this user: exactly one of notification_ids, before (a time) or mark_all; workflow_id narrows before and mark_all.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  }, z.object({
    notification_ids: z.array(uuidParam).max(100).optional(),
    before: z.string().max(100).optional().describe('Mark those at or before this time (ISO 8601)'),
    mark_all: z.boolean().optional(),
    workflow_id: uuidParam.optional(),
  }), async (args) => {
    const body = parseOr422(routeById('mark_notifications_read').body!, args, ['body']) as MarkReadInput;
    return ok(await inbox().markRead(ctx.principal, body));
  });
}
