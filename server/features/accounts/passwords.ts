import { hash, verify, type Options } from '@node-rs/argon2';
import { Semaphore } from './semaphore.ts';

/** OWASP's argon2id minimum (m=19 MiB, t=2, p=1), written out so a library default change cannot weaken it. */
export const argon2Options: Options = {
  // The typings declare Algorithm as a const enum, which isolatedModules cannot inline: 2 is Argon2id.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment
  algorithm: 2,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

/**
 * Hashing costs 19 MiB and tens of milliseconds; at most `concurrency` run at once and the rest wait
 * in line, so a flood of logins queues up instead of exhausting memory or the thread pool.
 */
export class PasswordHasher {
  private readonly gate: Semaphore;
  private dummyHash: Promise<string> | undefined;

  /** `options`: argon2Options everywhere but in tests, which may pass cheaper ones (server/test/testApp.ts). */
  constructor(
    concurrency = 2,
    private readonly options: Options = argon2Options,
  ) {
    this.gate = new Semaphore(concurrency);
  }

  /** Hash computations waiting for a free slot. */
  get queued(): number {
    return this.gate.pending;
  }

  hash(password: string): Promise<string> {
    return this.gate.run(() => hash(password, this.options));
  }

  verify(passwordHash: string, password: string): Promise<boolean> {
    return this.gate.run(() => verify(passwordHash, password).catch(() => false));
  }

  /**
   * Spends the same work as a real check when the account does not exist, so response time does not
   * tell an attacker which e-mail addresses are registered.
   */
  async verifyAgainstNothing(password: string): Promise<false> {
    this.dummyHash ??= this.hash('not-a-real-password-1');
    await this.verify(await this.dummyHash, password);
    return false;
  }
}
