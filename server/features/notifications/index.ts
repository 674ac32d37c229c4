export { accountChange, type AccountChange, accountChangePayload } from './accountChange.ts';
export { defaultNotifyGraceSeconds, enqueuePremiumReminder, type NotificationQueue } from './queue.ts';
export { insertNotificationJob, settleAcknowledged } from './repository.ts';
export { type Notification, NotificationWorker, type Notifier, PermanentNotificationError } from './worker.ts';
