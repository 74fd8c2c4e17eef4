// Notification shapes (spec §2.7, §4.7; api-shapes.md "Notifications [SDK]").
import { z } from 'zod';
import { lenientTimestamp, queryBool, shortString, uuidParam } from './common';
import { JOB_EVENT_TYPES } from '../events';

const EventType = z.enum(JOB_EVENT_TYPES);

export const NotificationResponse = z
  .object({
    id: z.uuid(),
    event_type: z.string(),
    payload: z.record(z.string(), z.unknown()),
    created_at: z.iso.datetime(),
    is_read: z.boolean(),
    workflow_id: z.string().nullable(),
  })
  .meta({ id: 'NotificationResponse' });

export const NotificationListResponse = z
  .object({ events: z.array(NotificationResponse), next_cursor: z.string().nullable() })
  .meta({ id: 'NotificationListResponse' });

export const UnreadCountResponse = z.object({ unread_count: z.number().int().min(0) }).meta({ id: 'UnreadCountResponse' });

export const MarkReadResponse = z.object({ marked_count: z.number().int().min(0) }).meta({ id: 'MarkReadResponse' });

export const NotificationIdParams = z.object({ notification_id: uuidParam });

/** `event_types` is one comma-separated string (the SDK sends a single value); repeats are joined too. */
const EventTypesParam = z
  .union([z.string().max(500), z.array(z.string().max(100)).max(20)])
  .transform((v) => (Array.isArray(v) ? v.join(',') : v).split(',').map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(EventType));

/** A free string on the platform: an id that names no workflow of the account matches nothing. */
const workflowFilter = shortString.optional();

export const NotificationListQuery = z.object({
  workflow_id: workflowFilter,
  event_types: EventTypesParam.optional(),
  since: lenientTimestamp.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().min(1).max(2000).optional(),
  unread_only: queryBool.default(false),
});

export const UnreadCountQuery = z.object({ workflow_id: workflowFilter });

/** Exactly one selector: `notification_ids` / `before` / `mark_all`; `workflow_id` narrows `before` and `mark_all`. */
export const MarkReadRequest = z
  .object({
    notification_ids: z.array(uuidParam).max(100).nullish(),
    before: lenientTimestamp.nullish(),
    mark_all: z.boolean().nullish(),
    workflow_id: uuidParam.nullish(),
  })
  .superRefine((v, ctx) => {
    const chosen = [v.notification_ids != null, v.before != null, v.mark_all === true].filter(Boolean).length;
    if (chosen !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'Value error, exactly one of notification_ids, before or mark_all must be given',
      });
    }
    if (v.workflow_id != null && v.notification_ids != null) {
      ctx.addIssue({
        code: 'custom',
        path: ['workflow_id'],
        message: 'Value error, workflow_id is only valid together with before or mark_all',
      });
    }
  })
  .meta({ id: 'MarkReadRequest' });
