/** Message limits (the spec's "unlimited messages" is the premium side). */
export const freeMessagesPerDay = 100;
export const messagesPerMinute = 30;
