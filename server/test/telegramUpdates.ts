import type { Update } from 'grammy/types';

let nextUpdateId = 1000;
let nextMessageId = 1;

export interface TestSender {
  id: number;
  first_name?: string;
  username?: string;
  language_code?: string;
}

/** A private-chat text message as Telegram delivers it; a leading /command gets its bot_command entity. */
export function textMessage(from: TestSender, text: string): Update {
  const command = /^\/\w+/.exec(text);
  return {
    update_id: nextUpdateId++,
    message: {
      message_id: nextMessageId++,
      date: Math.floor(Date.now() / 1000),
      chat: { id: from.id, type: 'private', first_name: from.first_name ?? 'Test' },
      from: { is_bot: false, first_name: 'Test', ...from },
      text,
      ...(command ? { entities: [{ type: 'bot_command' as const, offset: 0, length: command[0].length }] } : {}),
    },
  };
}

/** A press of an inline button with `data` under a message the bot sent. */
export function buttonPress(from: TestSender, data: string, messageId = 1): Update {
  return {
    update_id: nextUpdateId++,
    callback_query: {
      id: String(nextUpdateId),
      from: { is_bot: false, first_name: 'Test', ...from },
      chat_instance: '1',
      data,
      message: {
        message_id: messageId,
        date: Math.floor(Date.now() / 1000),
        chat: { id: from.id, type: 'private', first_name: from.first_name ?? 'Test' },
        text: 'Choose',
      },
    },
  };
}
