import { describe, expect, it } from 'vitest';
import { noticeChannel } from './noticeChannels.ts';

describe('notice channel names', () => {
  it('keeps the readable name while it fits in 63 bytes', () => {
    expect(noticeChannel('sessions', 'public')).toBe('iskra_sessions_public');
    expect(noticeChannel('sessions', 's'.repeat(48))).toBe(`iskra_sessions_${'s'.repeat(48)}`);
    expect(noticeChannel('events', 'e'.repeat(50))).toBe(`iskra_events_${'e'.repeat(50)}`);
  });

  it('shortens a name that would not fit, the same way for the same schema and apart for others', () => {
    const long = 'a'.repeat(63);
    for (const kind of ['events', 'sessions'] as const) {
      const channel = noticeChannel(kind, long);
      expect(Buffer.byteLength(channel)).toBeLessThanOrEqual(63);
      expect(channel).toMatch(new RegExp(`^iskra_${kind}#[0-9a-f]{16}$`));
      expect(noticeChannel(kind, long)).toBe(channel);
      expect(noticeChannel(kind, `${'a'.repeat(62)}b`)).not.toBe(channel);
    }
    // One byte too long: the first 16 hex digits of md5 of the schema (as PostgreSQL's md5() in the triggers).
    expect(noticeChannel('sessions', 's'.repeat(49))).toBe('iskra_sessions#d2d28cd4eced10e4');
  });
});
