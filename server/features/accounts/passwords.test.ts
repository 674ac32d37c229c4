import { hash as argon2Hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { argon2Options, PasswordHasher } from './passwords.ts';

describe('PasswordHasher', () => {
  it('hashes with argon2id at m=7168 KiB, t=5, p=1 and verifies only the right password', async () => {
    const hasher = new PasswordHasher();
    const hash = await hasher.hash('secret123!');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$/);
    expect(await hasher.verify(hash, 'secret123!')).toBe(true);
    expect(await hasher.verify(hash, 'secret123?')).toBe(false);
    expect(await hasher.verify('not a hash', 'secret123!')).toBe(false);
    expect(await hasher.verifyAgainstNothing('secret123!')).toBe(false);
  });

  it('still verifies a password hashed with the earlier parameters (m=19456 KiB, t=2)', async () => {
    const earlier = await argon2Hash('secret123!', { ...argon2Options, memoryCost: 19_456, timeCost: 2 });
    expect(earlier).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const hasher = new PasswordHasher();
    expect(await hasher.verify(earlier, 'secret123!')).toBe(true);
    expect(await hasher.verify(earlier, 'secret123?')).toBe(false);
  });

  it('queues hashes beyond its concurrency instead of running them all at once', async () => {
    const hasher = new PasswordHasher(2);
    const all = Array.from({ length: 5 }, (_, i) => hasher.hash(`password${i}`));
    // Two run, three wait in line.
    expect(hasher.queued).toBe(3);
    expect(new Set(await Promise.all(all)).size).toBe(5);
  });
});
