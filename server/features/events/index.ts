export { type EventBus, type FanoutStatus, InProcessEventBus } from './eventBus.ts';
export { PostgresEventBus } from './postgresEventBus.ts';
export { noticeChannel } from './noticeChannels.ts';
export { writeMatchEnded, writeProfileLeaving } from './notices.ts';
export { badgeMarkerRow, insertBadgeMarkers, insertEvents, insertEventsAndMarkers } from './repository.ts';
