// Composition root of the notification inbox: the per-user inbox service with its signed cursors,
// and the audience of an account's events (who gets an inbox item).
import { config } from '../config';
import { lazySecretBox } from '../adapters/secret-box';
import { CursorSigner, storedCursorKey } from '../domain/cursor';
import { NotificationInbox } from '../domain/notification-inbox';
import type { Audience } from '../domain/notifications';
import { authService, coreStore } from './core';

let inbox: NotificationInbox | undefined;

export function notificationInbox(): NotificationInbox {
  return (inbox ??= new NotificationInbox(coreStore(), new CursorSigner(storedCursorKey(coreStore(), lazySecretBox))));
}

/**
 * The users of an account: the distinct users of its API keys, plus the default user in private mode
 * (AUTH_MODE=none). An event lands in the inboxes of the users known when it is recorded; a user
 * added later starts with an empty inbox (documented in the README).
 */
export const accountAudience: Audience = async (accountId) => {
  const c = config();
  const users = (await authService().listKeys(accountId)).map((k) => k.userId);
  if (c.AUTH_MODE === 'none' && accountId === c.DEFAULT_ACCOUNT_ID) users.push(c.DEFAULT_USER_ID);
  return [...new Set(users)];
};

export function resetNotificationServices(): void {
  inbox = undefined;
}
