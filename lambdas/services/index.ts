// Resets every composition root (tests and the local runner restart stacks on new endpoints).
import { resetCore } from './core';
import { resetConnectorServices } from './connectors';
import { resetJobServices } from './jobs';
import { resetChannelServices } from './channels';
import { resetNotificationServices } from './notifications';

export function resetServices(): void {
  resetCore();
  resetConnectorServices();
  resetJobServices();
  resetChannelServices();
  resetNotificationServices();
}
