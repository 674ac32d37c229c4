import { hash, verify, type Options } from '@node-rs/argon2';
import { Semaphore } from './semaphore.ts';

/**
 * One of OWASP's argon2id minimum configurations, written out so a library default change cannot weaken it.
 * OWASP lists m=19 MiB with t=2 and m=7 MiB with t=5 (among others) as equally strong, trading memory for
 * passes: the 7 MiB one costs about the same CPU (35,840 against 38,912 KiB-passes) and a third of the memory
 * a hash holds while it runs, which with two at once was the server's largest peak of resident memory (issue
 * 41: bench/memory.ts, a peak 37 MB higher with sign-ins in the mix than without). A hash records its own
 * parameters, so passwords hashed with m=19 MiB still verify.
 */
export const argon2Options: Options = {
  // The typings declare Algorithm as a const enum, which isolatedModules cannot inline: 2 is Argon2id.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment
  algorithm: 2,
  memoryCost: 7_168,
  timeCost: 5,
  parallelism: 1,
};

/**
 * Hashing costs 7 MiB and tens of milliseconds; at most `concurrency` run at once and the rest wait
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
   * Whether a stored hash was made with other parameters than this hasher's (the m=19 MiB, t=2 of before, say):
   * a sign-in that verified it re-hashes the password (AccountService.login), so old hashes go as people sign
   * in, and with them their larger memory and a verify time unlike the decoy's (verifyAgainstNothing).
   */
  needsRehash(passwordHash: string): boolean {
    const params = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(passwordHash);
    if (!params) return true;
    const [, m, t, p] = params.map(Number);
    return m !== this.options.memoryCost || t !== this.options.timeCost || p !== this.options.parallelism;
  }

  /**
   * Spends the same work as a real check when the account does not exist, so response time does not
   * tell an attacker which e-mail addresses are registered. The decoy is hashed with the current parameters;
   * a hash still on m=19 MiB, t=2 costs about the same CPU (38,912 against 35,840 KiB-passes, within the
   * noise of a sign-in), and is replaced by one on the current parameters at its owner's next sign-in
   * (needsRehash), so the two kinds of answer keep comparable times.
   */
  async verifyAgainstNothing(password: string): Promise<false> {
    this.dummyHash ??= this.hash('not-a-real-password-1');
    await this.verify(await this.dummyHash, password);
    return false;
  }
}
