/** The updates the bot asks Telegram for, in polling and in webhook mode alike. */
export const allowedUpdates = ['message', 'callback_query', 'pre_checkout_query'] as const;
