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

/**
 * The app's look (miniapp/src/styles/app.css: its font stack, warm palette, pill buttons, cards), light or
 * dark as the system prefers. Kept here rather than linked so the page stands alone, as a provider's does.
 */
const styles = `
:root{--accent:#e11d48;--accent-2:#f97316;--bg:#fff7f5;--surface:#fff;--text:#1c1917;--muted:#57534e;--border:#eadfdc;
--note-bg:#fef3c7;--note-text:#78350f;--shadow:0 1px 2px rgb(28 25 23/6%),0 8px 24px rgb(28 25 23/8%);color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#121016;--surface:#1c1a21;--text:#f5f3f7;--muted:#b4aebb;--border:#34303b;
--note-bg:#3a2a0c;--note-text:#fcd34d;--shadow:0 1px 2px rgb(0 0 0/30%),0 8px 24px rgb(0 0 0/35%)}}
*{box-sizing:border-box}
html,body{margin:0;min-height:100%;background:var(--bg);color:var(--text);
font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;-webkit-font-smoothing:antialiased}
main{max-width:420px;margin:0 auto;padding:24px 16px}
.brand{display:flex;align-items:center;gap:8px;font-weight:800;font-size:1.125rem;margin-bottom:16px}
.spark{width:22px;height:22px;border-radius:50%;background:linear-gradient(135deg,var(--accent-2),var(--accent))}
.note{background:var(--note-bg);color:var(--note-text);padding:12px 14px;border-radius:14px;font-weight:700;font-size:.9375rem;margin:0 0 16px}
.card{background:var(--surface);border:1px solid var(--border);border-radius:20px;padding:20px;box-shadow:var(--shadow)}
h1{font-size:1.5rem;line-height:1.2;letter-spacing:-.02em;margin:0 0 4px}
.amount{font-size:2rem;font-weight:800;font-variant-numeric:tabular-nums;margin:8px 0 20px}
.muted{color:var(--muted)}
form{margin:0}
.button{display:flex;width:100%;align-items:center;justify-content:center;min-height:52px;padding:10px 20px;border:0;border-radius:999px;
background:linear-gradient(135deg,var(--accent),#be123c);color:#fff;font:inherit;font-size:1.0625rem;font-weight:700;cursor:pointer;
box-shadow:0 6px 16px rgb(225 29 72/25%)}
.button:active{transform:scale(.98)}
.button:focus-visible{outline:3px solid var(--accent-2);outline-offset:2px}
.button.secondary{background:var(--surface);color:var(--text);border:1px solid var(--border);box-shadow:none;margin-top:12px}
`;

/** The built-in test provider's checkout: clearly a test, acting like a real provider's page, in the app's look. */
export function renderCheckoutPage(page: CheckoutPage): string {
  const { t } = page;
  const body = page.pending
    ? `<form method="post" action="${escapeHtml(page.actions.pay)}"><button type="submit" class="button">${escapeHtml(t('premium.checkout.pay'))}</button></form>
<form method="post" action="${escapeHtml(page.actions.cancel)}"><button type="submit" class="button secondary">${escapeHtml(t('premium.checkout.cancel'))}</button></form>`
    : `<p class="muted">${escapeHtml(t('premium.checkout.done'))}</p>`;
  return `<!doctype html><html lang="${escapeHtml(page.language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><title>${escapeHtml(t('premium.checkout.title'))}</title><style>${styles}</style></head>
<body><main>
<div class="brand"><span class="spark" aria-hidden="true"></span>${escapeHtml(t('premium.checkout.title'))}</div>
<p class="note" role="note">${escapeHtml(t('premium.checkout.banner'))}</p>
<section class="card">
<h1>${escapeHtml(page.planTitle)}</h1>
<p class="amount">${escapeHtml(t('premium.checkout.amount', { amount: page.amount }))}</p>
${body}
</section>
</main></body></html>`;
}
