import { api } from '../api/client.ts';

/**
 * Web Push on this browser (issue 39): the service worker (serviceWorker.js) shows what the server pushes.
 * Only on the web site: inside Telegram the bot brings the notifications, and no worker is registered there.
 */
export function pushSupported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** The registered service worker; undefined when none is (a dev server, a browser that refused it). */
async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  if (!pushSupported()) return undefined;
  return navigator.serviceWorker.getRegistration('/');
}

/** Whether this browser is subscribed now (the permission granted and a subscription kept). */
export async function pushSubscribed(): Promise<boolean> {
  if (!pushSupported() || Notification.permission !== 'granted') return false;
  const subscription = await (await registration())?.pushManager.getSubscription();
  return subscription !== null && subscription !== undefined;
}

/** Why turning push on failed, for the line under the switch. */
export type PushFailure = 'unsupported' | 'denied' | 'failed';

/**
 * Asks for the permission (only ever from a tap: browsers ignore, and people resent, an ask on load),
 * subscribes with the server's VAPID key and gives the subscription to the server.
 */
export async function enablePush(): Promise<PushFailure | null> {
  const worker = await registration();
  if (!worker) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission === 'denied' ? 'denied' : 'failed';
  try {
    // The schemas with the tap: the match overlay that offers this travels with the deck (issue 41: no zod in its first load).
    const [{ messageResponse }, { settingsResponse }, { pushKeyResponse }] = await Promise.all([
      import('@contract/accounts.ts'),
      import('@contract/discovery.ts'),
      import('@contract/push.ts'),
    ]);
    const { public_key } = await api.get('/api/push/key', pushKeyResponse);
    const key = base64urlBytes(public_key);
    let existing = await worker.pushManager.getSubscription();
    // Made for another key (the server's changed): the push service would refuse every signed push. Anew.
    if (existing && !sameBytes(existing.options.applicationServerKey, key)) {
      await existing.unsubscribe();
      existing = null;
    }
    const subscription =
      existing ?? (await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
    await api.post('/api/push/subscriptions', messageResponse, subscription.toJSON());
    // The account's switch too (it may have been turned off on another device): this tap is the person's wish.
    await api.post('/api/settings', settingsResponse, { push_notifications: true });
    return null;
  } catch {
    return 'failed';
  }
}

/**
 * Stops pushes to this browser: the server forgets it, and the browser drops the subscription. Also on
 * sign-out (the server drops it with the session anyway): the next person on this browser starts with it off.
 */
export async function disablePush(): Promise<void> {
  const subscription = await (await registration())?.pushManager.getSubscription();
  if (!subscription) return;
  const { messageResponse } = await import('@contract/accounts.ts');
  await api
    .post('/api/push/subscriptions/delete', messageResponse, { endpoint: subscription.endpoint })
    .catch(() => undefined);
  await subscription.unsubscribe();
}

function sameBytes(a: ArrayBuffer | null, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.length) return false;
  const view = new Uint8Array(a);
  return view.every((byte, i) => byte === b[i]);
}

function base64urlBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(value.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
