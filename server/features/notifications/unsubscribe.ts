import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { translatorFor, type Language } from '../../../locales/index.ts';
import { findEmailPreference, setEmailNotifications } from './repository.ts';
import type { UnsubscribeTokens } from './unsubscribeTokens.ts';

export type UnsubscribePage = { html: string };

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * The one-click unsubscribe of notification e-mails, without signing in: the token in the link names the
 * user. A GET only shows a page whose button POSTs (mail scanners follow links; a GET changes nothing);
 * the POST, from that button or from a mail client per RFC 8058, turns e-mail notifications off.
 */
export class EmailUnsubscribeService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly tokens: UnsubscribeTokens,
    private readonly publicUrl: string,
  ) {}

  /** The page with the button; null for a token that names no account. */
  async confirmPage(token: string): Promise<UnsubscribePage | null> {
    const account = await this.accountOf(token);
    if (!account) return null;
    const t = translatorFor(account.language);
    const form = `<form method="post"><button type="submit">${escapeHtml(t('mail.unsubscribe.button'))}</button></form>`;
    return { html: this.page(account.language, `<p>${escapeHtml(t('mail.unsubscribe.question'))}</p>${form}`) };
  }

  /** Turns e-mails off; null for a token that names no account (nothing changes). */
  async unsubscribe(token: string): Promise<UnsubscribePage | null> {
    const account = await this.accountOf(token);
    if (!account) return null;
    await setEmailNotifications(this.db, account.userId, false);
    const t = translatorFor(account.language);
    const open = `<p><a href="${escapeHtml(this.publicUrl)}">${escapeHtml(t('mail.unsubscribe.open'))}</a></p>`;
    return {
      html: this.page(account.language, `<p role="status">${escapeHtml(t('mail.unsubscribe.done'))}</p>${open}`),
    };
  }

  private async accountOf(
    token: string,
  ): Promise<{ userId: NonNullable<ReturnType<UnsubscribeTokens['verify']>>; language: Language } | null> {
    const userId = this.tokens.verify(token);
    if (userId === null) return null;
    const row = await findEmailPreference(this.db, userId);
    return row ? { userId, language: row.language } : null;
  }

  private page(language: Language, body: string): string {
    const t = translatorFor(language);
    return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(t('mail.unsubscribe.title'))}</title>
<style>body{margin:0;padding:48px 20px;font-family:-apple-system,Segoe UI,Roboto,Arial,sans-serif;background:#f6f2ef;color:#2b2220}main{max-width:420px;margin:0 auto;background:#fff;border-radius:16px;padding:28px 24px}h1{font-size:22px;margin:0 0 16px;color:#e11d48}p{font-size:16px;line-height:1.5}button{font:inherit;font-weight:600;background:#e11d48;color:#fff;border:0;border-radius:12px;padding:12px 22px;cursor:pointer}a{color:#e11d48}@media (prefers-color-scheme:dark){body{background:#1c1716;color:#f2ebe8}main{background:#2a2321}}</style>
</head><body><main><h1>${escapeHtml(t('mail.unsubscribe.title'))}</h1>${body}</main></body></html>
`;
  }
}
