import type { Transporter } from 'nodemailer';
import type { Logger } from '../logger.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative to `text` (notification e-mails). */
  html?: string;
  /** Extra headers, e.g. List-Unsubscribe (RFC 2369) and List-Unsubscribe-Post (RFC 8058). */
  headers?: Record<string, string>;
}

/** How the server sends e-mail; main.ts picks SMTP or the log, tests use a real SMTP server on loopback. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /**
   * True when mail only goes to the log (no SMTP_URL): fine for sign-in codes on a developer's machine, but
   * notification e-mails (addresses, names, message previews) must then not be made at all.
   */
  readonly printsOnly?: boolean;
}

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  // nodemailer (about 10 MB of the process) is loaded with the first e-mail, not at start (issue 41: memory).
  let transport: Promise<Transporter> | undefined;
  return {
    async send(message) {
      transport ??= import('nodemailer').then((nodemailer) => nodemailer.default.createTransport(smtpUrl, { from }));
      await (await transport).sendMail({ ...message, from });
    },
  };
}

/**
 * Zero-config development: without SMTP_URL the mail (with its code) goes to the server log, so a newcomer
 * can still verify an account. Never used when SMTP_URL is set.
 */
export function createLogMailer(logger: Logger): Mailer {
  return {
    printsOnly: true,
    send(message) {
      logger.warn(
        { mailTo: message.to, subject: message.subject, text: message.text },
        'SMTP_URL is not set: e-mail printed instead of sent',
      );
      // …and once as a plain line a newcomer reads at a glance (the subject carries the code).
      process.stdout.write(`\n  E-mail to ${message.to}: ${message.subject}\n\n`);
      return Promise.resolve();
    },
  };
}
