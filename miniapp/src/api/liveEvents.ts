import { readStored, storageKeys } from '../lib/storage.ts';

type Listener = (data: unknown) => void;

/**
 * One `/api/events` stream per tab, shared by every screen that listens (Server-Sent Events). The browser
 * reconnects by itself after a dropped connection and sends `Last-Event-ID`, so nothing is missed; when
 * it gives up (the server answered an error, or the network was gone for long) this module opens a new
 * stream with growing pauses and passes the last id it saw. The stream closes when nobody listens.
 */
const listeners = new Map<string, Set<Listener>>();
const openListeners = new Set<() => void>();
let source: EventSource | null = null;
let lastEventId: string | null = null;
let retryTimer: number | undefined;
let retryDelayMs = 1000;
const attached = new Set<string>();

function streamUrl(): string {
  const params = new URLSearchParams();
  // EventSource cannot set headers: a Mini App session (token, no cookie) rides in the URL.
  const token = readStored(storageKeys.jwtToken);
  if (token) params.set('token', token);
  if (lastEventId) params.set('lastEventId', lastEventId);
  const query = params.toString();
  return query ? `/api/events?${query}` : '/api/events';
}

function attach(type: string) {
  if (!source || attached.has(type)) return;
  attached.add(type);
  source.addEventListener(type, (event: MessageEvent<string>) => {
    if (event.lastEventId) lastEventId = event.lastEventId;
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch {
      return;
    }
    for (const listener of listeners.get(type) ?? []) listener(data);
  });
}

function connect() {
  window.clearTimeout(retryTimer);
  retryTimer = undefined;
  attached.clear();
  source = new EventSource(streamUrl(), { withCredentials: true });
  for (const type of listeners.keys()) attach(type);
  source.onopen = () => {
    retryDelayMs = 1000;
    for (const listener of openListeners) listener();
  };
  source.onerror = () => {
    if (source?.readyState !== EventSource.CLOSED) return;
    source.close();
    source = null;
    retryTimer = window.setTimeout(connect, retryDelayMs);
    retryDelayMs = Math.min(retryDelayMs * 2, 30_000);
  };
}

function disconnectWhenUnused() {
  if (listeners.size > 0 || openListeners.size > 0) return;
  window.clearTimeout(retryTimer);
  retryTimer = undefined;
  source?.close();
  source = null;
}

/** Calls `listener` with each event of `type` (its JSON data); returns the unsubscribe function. */
export function onLiveEvent(type: string, listener: Listener): () => void {
  let set = listeners.get(type);
  if (!set) listeners.set(type, (set = new Set()));
  set.add(listener);
  if (!source && retryTimer === undefined) connect();
  else attach(type);
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(type);
    disconnectWhenUnused();
  };
}

/** Calls `listener` whenever the stream (re)opens: a screen may refresh what it shows. */
export function onLiveOpen(listener: () => void): () => void {
  openListeners.add(listener);
  return () => {
    openListeners.delete(listener);
    disconnectWhenUnused();
  };
}
