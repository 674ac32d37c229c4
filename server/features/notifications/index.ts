export { defaultNotifyGraceSeconds, enqueuePremiumReminder, type NotificationQueue } from './queue.ts';
export { settleAcknowledged } from './repository.ts';
export { type Notification, NotificationWorker, type Notifier, PermanentNotificationError } from './worker.ts';
