import { describe, expect, it } from 'vitest';
import type { UserId } from '../../../db/schema.ts';
import { SessionCache, type CachedSession } from './sessionCache.ts';

const session = (userId: number, hash = `h${userId}`): CachedSession => ({
  userId: userId as UserId,
  sessionHash: hash,
  verified: true,
  language: 'ru',
});
const far = Number.MAX_SAFE_INTEGER;

describe('the session cache', () => {
  it('keeps a session for its lifetime only, and never past the session’s own end', () => {
    let now = 1000;
    const cache = new SessionCache(5000, 10, () => now);
    cache.put(session(1), cache.readStarted(), far);
    cache.put(session(2), cache.readStarted(), 3000);
    now = 2999;
    expect(cache.get('h1')).toEqual(session(1));
    expect(cache.get('h2')).toEqual(session(2));
    now = 3000;
    expect(cache.get('h2')).toBeUndefined();
    now = 6000;
    expect(cache.get('h1')).toBeUndefined();
  });

  it('drops every session of a changed user, and keeps the others', () => {
    const cache = new SessionCache(5000, 10);
    cache.put(session(1, 'a'), cache.readStarted(), far);
    cache.put(session(1, 'b'), cache.readStarted(), far);
    cache.put(session(2), cache.readStarted(), far);
    cache.forgetUsers([1 as UserId]);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('h2')).toEqual(session(2));
  });

  it('does not store a read that began before a change to its user or a clear (it may hold the old row)', () => {
    const cache = new SessionCache(5000, 10);
    const before = cache.readStarted();
    cache.forgetUsers([1 as UserId]);
    cache.put(session(1), before, far);
    expect(cache.get('h1')).toBeUndefined();
    cache.put(session(2), before, far);
    expect(cache.get('h2')).toEqual(session(2));
    const beforeClear = cache.readStarted();
    cache.clear();
    cache.put(session(3), beforeClear, far);
    expect(cache.get('h3')).toBeUndefined();
    cache.put(session(1), cache.readStarted(), far);
    expect(cache.get('h1')).toEqual(session(1));
  });

  it('holds at most its bound, the oldest going first', () => {
    const cache = new SessionCache(5000, 3);
    for (let user = 1; user <= 5; user++) cache.put(session(user), cache.readStarted(), far);
    expect([1, 2, 3, 4, 5].map((user) => cache.get(`h${user}`) !== undefined)).toEqual([
      false,
      false,
      true,
      true,
      true,
    ]);
    // The marks of changed users are bounded too: past the bound a clear stands in for them.
    for (let user = 10; user < 20; user++) cache.forgetUsers([user as UserId]);
    expect(cache.get('h5')).toBeUndefined();
  });
});
