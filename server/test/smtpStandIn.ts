import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  /** The HTML part; empty when there is none. */
  html: string;
  /** Raw header values by lower-case name (the first of each), e.g. `list-unsubscribe`. */
  headers: Record<string, string>;
}

/**
 * A real SMTP server on loopback (the `smtp-server` package): nodemailer talks the whole protocol to it.
 * `refuseRecipients` makes it answer RCPT TO with a permanent error, as a mail server does for a bad address.
 */
export class SmtpStandIn {
  readonly received: ReceivedMail[] = [];
  refuseRecipients = false;
  /**
   * Called once a mail has arrived whole and before the server answers 250: a test can kill the sender
   * here, so the mail exists while the sender never learns it was accepted.
   */
  beforeAccept: ((mail: ReceivedMail) => void) | undefined;
  private readonly waiters: { to: string; resolve: (mail: ReceivedMail) => void }[] = [];
  private readonly server: SMTPServer;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        if (this.refuseRecipients) {
          const error = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 });
          callback(error);
          return;
        }
        callback();
      },
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then((parsed) => {
            const to = (Array.isArray(parsed.to) ? parsed.to : parsed.to ? [parsed.to] : []).flatMap((a) =>
              a.value.map((v) => v.address ?? ''),
            );
            const mail: ReceivedMail = {
              to,
              from: parsed.from?.text ?? '',
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              headers: Object.fromEntries(
                [...parsed.headerLines]
                  .reverse()
                  .map(({ key, line }) => [key.toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
              ),
            };
            this.received.push(mail);
            this.beforeAccept?.(mail);
            for (const waiter of this.waiters.filter((w) => to.includes(w.to))) {
              this.waiters.splice(this.waiters.indexOf(waiter), 1);
              waiter.resolve(mail);
            }
            callback();
          })
          .catch((error: unknown) => {
            callback(error instanceof Error ? error : new Error(String(error)));
          });
      },
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.server.address() as AddressInfo;
    return `smtp://127.0.0.1:${port}`;
  }

  mailsTo(address: string): ReceivedMail[] {
    return this.received.filter((m) => m.to.includes(address));
  }

  /** The newest mail to `address`, waiting up to `timeoutMs` for one when none has arrived yet. */
  async lastMailTo(address: string, timeoutMs = 5000): Promise<ReceivedMail> {
    const existing = this.mailsTo(address).at(-1);
    if (existing) return existing;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no mail to ${address} within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        to: address,
        resolve: (mail) => {
          clearTimeout(timer);
          resolve(mail);
        },
      });
    });
  }

  /** The `count`-th mail to `address` (1 is the first), waiting for it when fewer have arrived. */
  async nthMailTo(address: string, count: number, timeoutMs = 5000): Promise<ReceivedMail> {
    for (;;) {
      const mail = this.mailsTo(address)[count - 1];
      if (mail) return mail;
      await new Promise<ReceivedMail>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no mail number ${count} to ${address} within ${timeoutMs} ms`)),
          timeoutMs,
        );
        this.waiters.push({
          to: address,
          resolve: (arrived) => {
            clearTimeout(timer);
            resolve(arrived);
          },
        });
      });
    }
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The six-digit code of a verification mail. */
export function codeFrom(mail: Pick<ReceivedMail, 'to' | 'from' | 'subject' | 'text'>): string {
  const match = /\b(\d{6})\b/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no code in mail: ${mail.text}`);
  return match[1];
}
