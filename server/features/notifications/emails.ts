import { translatorFor, type Language } from '../../../locales/index.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import { genderContext } from '../../../locales/genderContext.ts';
import type { NotificationContent, NotificationGenders } from './content.ts';

/** The path of the one-click unsubscribe (GET: a page with a button; POST: off), with the token after it. */
export const unsubscribePathPrefix = '/api/email/unsubscribe/';

export function unsubscribeUrl(publicUrl: string, token: string): string {
  return new URL(`${unsubscribePathPrefix}${token}`, publicUrl).toString();
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * A match or message e-mail in the recipient's language: plain text and HTML, a button into the web app,
 * and the one-click unsubscribe as List-Unsubscribe (RFC 2369) with List-Unsubscribe-Post (RFC 8058), so
 * mail clients can offer it, and as a link in the body.
 */
export function notificationEmail(
  to: string,
  language: Language,
  content: Extract<NotificationContent, { kind: 'match' | 'message' }>,
  links: { publicUrl: string; unsubscribeUrl: string },
  /** Unknown: the neutral wording. */
  genders: NotificationGenders = { reader: null, other: null },
): MailMessage {
  const t = translatorFor(language);
  const base = links.publicUrl.replace(/\/$/, '');
  const { subject, line, button, target } =
    content.kind === 'match'
      ? {
          subject: t('mail.notify.matchSubject', { name: content.name }),
          // Said to the recipient ("Напишите первой"): their gender.
          line: t('mail.notify.matchText', { name: content.name, context: genderContext(genders.reader) }),
          button: t('mail.notify.openMatch'),
          target: content.profileId === undefined ? `${base}/matches` : `${base}/UsersProfile/${content.profileId}`,
        }
      : {
          subject: t('mail.notify.messageSubject', { name: content.name }),
          line: t('mail.notify.messageText', { name: content.name, preview: content.preview }),
          button: t('mail.notify.openChat'),
          target: `${base}/chat/${content.conversationId}`,
        };
  const text = [
    t('mail.notify.greeting'),
    '',
    line,
    `${button}: ${target}`,
    '',
    '—',
    t('mail.notify.why'),
    t('mail.notify.unsubscribeText', { url: links.unsubscribeUrl }),
  ].join('\n');
  const html = `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px 12px;background:#f6f2ef;font-family:-apple-system,Segoe UI,Roboto,Arial,sans-serif;color:#2b2220">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:480px;background:#ffffff;border-radius:16px;padding:28px 24px">
<tr><td style="font-size:22px;font-weight:700;color:#e11d48;padding-bottom:16px">Искра · Iskra</td></tr>
<tr><td style="font-size:16px;line-height:1.5;padding-bottom:8px">${escapeHtml(t('mail.notify.greeting'))}</td></tr>
<tr><td style="font-size:16px;line-height:1.5;padding-bottom:24px">${escapeHtml(line)}</td></tr>
<tr><td style="padding-bottom:28px"><a href="${escapeHtml(target)}" style="display:inline-block;background:#e11d48;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 22px;border-radius:12px">${escapeHtml(button)}</a></td></tr>
<tr><td style="font-size:12px;line-height:1.5;color:#7a6d69">${escapeHtml(t('mail.notify.why'))}<br><a href="${escapeHtml(links.unsubscribeUrl)}" style="color:#7a6d69">${escapeHtml(t('mail.notify.unsubscribe'))}</a></td></tr>
</table></td></tr></table>
</body></html>
`;
  return {
    to,
    subject,
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${links.unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
