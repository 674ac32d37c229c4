import { hapticFeedback, initData, invoice, requestWriteAccess } from '@telegram-apps/sdk-react';
import { startParamFromAddress, type HapticKind, type InvoiceOutcome } from './platform.ts';

/** What each of the app's haptic kinds feels like in Telegram's HapticFeedback. */
export function telegramHaptic(kind: HapticKind): void {
  if (kind === 'like') hapticFeedback.impactOccurred.ifAvailable('medium');
  else if (kind === 'dislike' || kind === 'message') hapticFeedback.impactOccurred.ifAvailable('light');
  else if (kind === 'selection') hapticFeedback.selectionChanged.ifAvailable();
  else hapticFeedback.notificationOccurred.ifAvailable(kind === 'error' ? 'error' : 'success');
}

/** Telegram's invoice sheet for `url`, or (a client without it) the payment page in the whole window. */
export async function openTelegramInvoice(url: string): Promise<InvoiceOutcome> {
  const opened = invoice.open.ifAvailable(url, 'url');
  if (!opened[0]) {
    window.location.assign(url);
    return 'pending';
  }
  const status = await opened[1];
  return status === 'paid'
    ? 'paid'
    : status === 'cancelled'
      ? 'cancelled'
      : status === 'pending'
        ? 'pending'
        : 'failed';
}

/** Lets the bot write to the user: asked only when the user never started the bot (Telegram says so in the init data). */
export async function askWriteAccess(): Promise<boolean> {
  if (initData.user()?.allows_write_to_pm) return true;
  const asked = requestWriteAccess.ifAvailable();
  if (!asked[0]) return false;
  return (await asked[1]) === 'allowed';
}

/** A t.me/<bot>/<app>?startapp= link puts the start parameter in the init data; a web_app button in the address. */
export function telegramStartParam(): string | null {
  let fromInitData: string | undefined;
  try {
    fromInitData = initData.startParam();
  } catch {
    fromInitData = undefined;
  }
  return fromInitData ?? startParamFromAddress();
}
