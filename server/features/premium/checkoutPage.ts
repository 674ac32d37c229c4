import type { TFunction } from 'i18next';

export interface CheckoutPage {
  language: string;
  t: TFunction;
  planTitle: string;
  amount: number;
  /** Still payable: Pay and Cancel; otherwise only "already done". */
  pending: boolean;
  /** Where the buttons post (the payment's own link, key included). */
  actions: { pay: string; cancel: string };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The built-in test provider's checkout: a plain page, clearly a test, acting like a real provider's. */
export function renderCheckoutPage(page: CheckoutPage): string {
  const { t } = page;
  const buttons = page.pending
    ? `<form method="post" action="${escapeHtml(page.actions.pay)}"><button type="submit" style="font-size:18px;padding:12px 24px">${escapeHtml(t('premium.checkout.pay'))}</button></form>
<form method="post" action="${escapeHtml(page.actions.cancel)}" style="margin-top:12px"><button type="submit">${escapeHtml(t('premium.checkout.cancel'))}</button></form>`
    : `<p>${escapeHtml(t('premium.checkout.done'))}</p>`;
  return `<!doctype html><html lang="${escapeHtml(page.language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(t('premium.checkout.title'))}</title></head>
<body style="font-family:system-ui,sans-serif;max-width:420px;margin:40px auto;padding:0 16px">
<p style="background:#fef3c7;color:#78350f;padding:12px;border-radius:12px;font-weight:700">${escapeHtml(t('premium.checkout.banner'))}</p>
<h1>${escapeHtml(page.planTitle)}</h1>
<p>${escapeHtml(t('premium.checkout.amount', { amount: page.amount }))}</p>
${buttons}
</body></html>`;
}
