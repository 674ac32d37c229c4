import type { ApiCallFn } from 'grammy';
import { describe, expect, it } from 'vitest';
import { messageRateLimiter } from './rateLimiter.ts';

/** A clock that stands still; each call records how long the limiter made it wait. */
function plannedDelays() {
  const waits: { chat: unknown; ms: number }[] = [];
  let pendingWait = 0;
  const timer = {
    now: () => 0,
    sleep: (ms: number) => {
      pendingWait = ms;
      return Promise.resolve();
    },
  };
  const prev = ((_method: string, payload: { chat_id?: unknown }) => {
    waits.push({ chat: payload.chat_id, ms: pendingWait });
    pendingWait = 0;
    return Promise.resolve({ ok: true, result: true });
  }) as unknown as ApiCallFn;
  return { waits, timer, prev };
}

describe('outgoing message pacing', () => {
  it('spaces messages to one chat by the per-chat interval, other chats only by the global gap', async () => {
    const { waits, timer, prev } = plannedDelays();
    const limiter = messageRateLimiter({ perChatIntervalMs: 1000, minGapMs: 34 }, timer);
    for (const chat of [1, 1, 1, 2, 3]) await limiter(prev, 'sendMessage', { chat_id: chat, text: 'x' });
    // Chat 1 at 0, 1000, 2000; chats 2 and 3 fill the gaps right after the first message, not after chat 1's queue.
    expect(waits).toEqual([
      { chat: 1, ms: 0 },
      { chat: 1, ms: 1000 },
      { chat: 1, ms: 2000 },
      { chat: 2, ms: 34 },
      { chat: 3, ms: 68 },
    ]);
  });

  it('keeps 30 messages a second overall across many chats', async () => {
    const { waits, timer, prev } = plannedDelays();
    const limiter = messageRateLimiter(undefined, timer);
    for (let chat = 1; chat <= 60; chat++) await limiter(prev, 'sendMessage', { chat_id: chat, text: 'x' });
    expect(waits.filter((w) => w.ms < 1000)).toHaveLength(30);
  });

  it('does not pace calls that are not messages', async () => {
    const { waits, timer, prev } = plannedDelays();
    const limiter = messageRateLimiter({ perChatIntervalMs: 10_000, minGapMs: 10_000 }, timer);
    await limiter(prev, 'sendMessage', { chat_id: 1, text: 'x' });
    await limiter(prev, 'answerCallbackQuery', { callback_query_id: '1' });
    await limiter(prev, 'setChatMenuButton', { chat_id: 1 });
    expect(waits.map((w) => w.ms)).toEqual([0, 0, 0]);
  });
});
