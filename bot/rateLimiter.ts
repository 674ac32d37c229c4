import type { Transformer } from 'grammy';

/** Telegram: about one message a second per chat, about 30 a second overall (https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this). */
export const telegramLimits = { perChatIntervalMs: 1000, minGapMs: Math.ceil(1000 / 30) };

/** Methods that post a message; edits, answers and settings are not counted by Telegram's message limits. */
const sendsMessage = /^(send|copyMessages?$|forwardMessages?$)/;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * An API transformer that paces outgoing messages instead of letting Telegram answer 429: each chat gets
 * a slot at most once per `perChatIntervalMs`, and any two sends are at least `minGapMs` apart. A message
 * waiting for its chat's interval does not hold up other chats: it reserves a slot in the future and the
 * others fill the gaps before it. Slots are reserved synchronously in call order. One process; several
 * processes keep their own pace each (auto-retry then absorbs the rare 429).
 */
export function messageRateLimiter(
  limits = telegramLimits,
  timer: { now: () => number; sleep: (ms: number) => Promise<void> } = { now: Date.now, sleep },
): Transformer {
  const nextSlotByChat = new Map<string, number>();
  /** Reserved send times, ascending. */
  const reserved: number[] = [];

  /** The earliest time from `earliest` on that is at least minGapMs away from every reserved send. */
  function globalSlot(earliest: number): number {
    let at = earliest;
    for (const slot of reserved) {
      if (slot <= at - limits.minGapMs) continue;
      if (slot >= at + limits.minGapMs) break;
      at = slot + limits.minGapMs;
    }
    return at;
  }

  return async (prev, method, payload, signal) => {
    const chatId = (payload as { chat_id?: unknown } | undefined)?.chat_id;
    if (!sendsMessage.test(method) || (typeof chatId !== 'number' && typeof chatId !== 'string')) {
      return prev(method, payload, signal);
    }
    const key = String(chatId);
    const current = timer.now();
    while (reserved.length > 0 && (reserved[0] ?? 0) <= current - limits.minGapMs) reserved.shift();
    const at = globalSlot(Math.max(current, nextSlotByChat.get(key) ?? 0));
    const index = reserved.findIndex((slot) => slot > at);
    reserved.splice(index === -1 ? reserved.length : index, 0, at);
    nextSlotByChat.set(key, at + limits.perChatIntervalMs);
    if (nextSlotByChat.size > 10_000) {
      // Forget chats whose slot has passed, so the map stays as small as the recent traffic.
      for (const [chat, slot] of nextSlotByChat) if (slot <= current) nextSlotByChat.delete(chat);
    }
    if (at > current) await timer.sleep(at - current);
    return prev(method, payload, signal);
  };
}
