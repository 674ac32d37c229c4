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

/** Telegram's question before it takes the Stars for one of our invoices. */
export function preCheckoutQuery(from: TestSender, payload: string, totalAmount: number, currency = 'XTR'): Update {
  return {
    update_id: nextUpdateId++,
    pre_checkout_query: {
      id: `pcq-${nextUpdateId}`,
      from: { is_bot: false, first_name: 'Test', ...from },
      currency,
      total_amount: totalAmount,
      invoice_payload: payload,
    },
  };
}

/** The service message of a paid invoice; a Stars subscription's renewals come as recurring ones. */
export function successfulPayment(
  from: TestSender,
  payload: string,
  totalAmount: number,
  chargeId: string,
  recurring: { is_recurring?: true; is_first_recurring?: true } = {},
): Update {
  return {
    update_id: nextUpdateId++,
    message: {
      message_id: nextMessageId++,
      date: Math.floor(Date.now() / 1000),
      chat: { id: from.id, type: 'private', first_name: from.first_name ?? 'Test' },
      from: { is_bot: false, first_name: 'Test', ...from },
      successful_payment: {
        currency: 'XTR',
        total_amount: totalAmount,
        invoice_payload: payload,
        telegram_payment_charge_id: chargeId,
        provider_payment_charge_id: '',
        ...recurring,
      },
    },
  };
}
