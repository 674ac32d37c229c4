export { type EventBus, InProcessEventBus, PostgresEventBus } from './eventBus.ts';
export { noticeChannel } from './noticeChannels.ts';
export { writeMatchEnded, writeProfileLeaving } from './notices.ts';
export { badgeMarkerRow, insertBadgeMarkers, insertEvents, insertEventsAndMarkers } from './repository.ts';
