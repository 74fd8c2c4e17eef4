// Notification endpoints (spec §4.7): thin wrappers over NotificationInbox; every call acts for the
// authenticated user (read flags are per user, spec §5).
import { httpRoute } from '../http/handler';
import { routeById } from '../routes';
import { notificationInbox } from '../services/notifications';
import type { MarkReadInput, NotificationListQuery } from '../domain/notification-inbox';

export const listNotifications = httpRoute(routeById('list_notifications'), async ({ principal, query }) =>
  notificationInbox().list(principal, query as NotificationListQuery),
);

export const getUnreadCount = httpRoute(routeById('get_unread_count'), async ({ principal, query }) =>
  notificationInbox().unreadCount(principal, (query as { workflow_id?: string }).workflow_id),
);

export const markNotificationsRead = httpRoute(routeById('mark_notifications_read'), async ({ principal, body }) =>
  notificationInbox().markRead(principal, body as MarkReadInput),
);

export const getNotification = httpRoute(routeById('get_notification'), async ({ principal, params }) =>
  notificationInbox().get(principal, (params as { notification_id: string }).notification_id),
);
