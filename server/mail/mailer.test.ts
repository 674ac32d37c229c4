import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../logger.ts';
import { createLogMailer } from './mailer.ts';

describe('mail without SMTP_URL', () => {
  afterEach(() => vi.restoreAllMocks());

  it('prints the e-mail with its code as one plain line a newcomer reads at a glance', async () => {
    const printed: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    });
    const logger = createLogger('info', new Writable({ write: (_chunk, _encoding, callback) => callback() }));
    await createLogMailer(logger).send({
      to: 'new@example.com',
      subject: 'Iskra: your verification code 123456',
      text: 'Your code is 123456.',
    });
    const lines = printed.join('').split('\n');
    // Plain text, not a JSON log record: the address and the code on one line.
    expect(lines).toContain('  E-mail to new@example.com: Iskra: your verification code 123456');
    expect(printed.join('')).not.toContain('{"');
  });
});
