import { parseLaunchParamsQuery, retrieveRawLaunchParams } from '@telegram-apps/sdk-react';

/** This tab's launch parameters as Telegram gave them, for a reload (which loses the address's hash). */
const keptKey = 'iskra.launch';

/**
 * One launch of the Mini App, read before the Telegram SDK sees it. `initData` is Telegram's init data
 * exactly as sent (the server checks its `hash`); `sdkQuery` the launch parameters in the form the SDK's
 * strict parser takes; `id` is unique to the launch (the init data's hash); `readable` false when the
 * SDK could not read them at all (the app then says so instead of showing a blank page).
 */
export interface TelegramLaunch {
  sdkQuery: string;
  initData: string;
  id: string | null;
  readable: boolean;
  /** `sdkQuery` differs from Telegram's (a `signature` added): the SDK must be handed it. */
  patched: boolean;
}

/** The launch parameters in the address, as the SDK finds them: everything after the first `?` or `#`. */
function fromAddress(): string | null {
  const query = window.location.href.replace(/^[^?#]*[?#]/, '').replace(/[?#]/g, '&');
  return new URLSearchParams(query).has('tgWebAppData') ? query : null;
}

function kept(): string | null {
  try {
    return sessionStorage.getItem(keptKey);
  } catch {
    return null;
  }
}

function keep(query: string): void {
  try {
    sessionStorage.setItem(keptKey, query);
  } catch {
    // Private mode without storage: a reload then reads what the SDK kept itself.
  }
}

/** What the SDK kept from an earlier load of this tab (a tab opened before the app kept its own copy). */
function keptBySdk(): string | null {
  try {
    return retrieveRawLaunchParams();
  } catch {
    return null;
  }
}

/**
 * Bot API 8.0 added `signature` (Ed25519, for third parties) to init data; older and third-party clients
 * send none, and the SDK's parser requires it. The server checks `hash` as Telegram documents and never
 * needs it, so the SDK's copy gets an empty one: only the SDK reads that copy, the server gets the original.
 */
function withSignature(query: string): string {
  const params = new URLSearchParams(query);
  const initData = new URLSearchParams(params.get('tgWebAppData') ?? '');
  if (initData.has('signature')) return query;
  initData.set('signature', '');
  params.set('tgWebAppData', initData.toString());
  return params.toString();
}

/** This tab's launch, or null when nothing says it was opened by Telegram. */
export function readTelegramLaunch(): TelegramLaunch | null {
  const address = fromAddress();
  if (address) keep(address);
  const query = address ?? kept() ?? keptBySdk();
  if (query === null) return null;
  const initData = new URLSearchParams(query).get('tgWebAppData') ?? '';
  const id = new URLSearchParams(initData).get('hash');
  const sdkQuery = withSignature(query);
  let readable = true;
  try {
    parseLaunchParamsQuery(sdkQuery);
  } catch (error) {
    console.warn('Telegram launch parameters not readable', error);
    readable = false;
  }
  return { sdkQuery, initData, id: id || null, readable, patched: sdkQuery !== query };
}
