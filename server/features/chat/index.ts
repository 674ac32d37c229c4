export { countUnreadChats, openConversationWithLikeMessages, recordDepartures, unreadTo } from './repository.ts';
export { freeMessagesPerDay, messagesPerMinute } from './rules.ts';
