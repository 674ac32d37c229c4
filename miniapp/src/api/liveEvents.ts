import type { LiveEvent, liveEventPayloads } from '@contract/events.ts';
import { ephemeralEventTypes, liveEventTypes, type LiveEventType } from '@contract/eventTypes.ts';
import { readStored, storageKeys } from '../lib/storage.ts';
import { api, ApiError, lazySchema } from './client.ts';
import { liveStreamOpen } from './liveGate.ts';

/**
 * A live event as it arrived: its contract type and payload, and its row id (what `POST /api/events/ack`
 * takes); null for one that is not a row (someone typing).
 */
export type ReceivedEvent = LiveEvent & { id: number | null };

type Listener = (event: ReceivedEvent) => void;

/**
 * The app's one `/api/events` stream (Server-Sent Events), opened by the app shell while a member is
 * signed in (components/LiveShell.tsx) and shared by everything that listens. After a dropped connection
 * the browser reconnects by itself and sends `Last-Event-ID`, so nothing is missed; when it gives up (the
 * server answered an error, or the network was gone for long) this module opens a new stream after a
 * growing, jittered pause (1 s doubling to 30 s), passing the last id it saw as `?lastEventId=`. A tab
 * that is hidden keeps its stream (badges and the chat list are true the moment it shows again); a
 * stream the browser lost meanwhile (a phone suspends background pages) reconnects at once when the tab
 * shows again or the network comes back, without waiting out the pause.
 */
const listeners = new Set<Listener>();
const openListeners = new Set<() => void>();
let source: EventSource | null = null;
let running = false;
let lastEventId: number | null = null;
let retryTimer: number | undefined;
let retryDelayMs = 1000;
/** The server refused the session: no more tries until the stream is started again (a new sign-in). */
let refused = false;
/** Counts the starts, so an answer arriving after a stop and a new start is not taken for the new one. */
let runs = 0;
const maxRetryDelayMs = 30_000;

function streamUrl(): string {
  const params = new URLSearchParams();
  // EventSource cannot set headers: a Mini App session (token, no cookie) rides in the URL.
  const token = readStored(storageKeys.jwtToken);
  if (token) params.set('token', token);
  if (lastEventId !== null) params.set('lastEventId', String(lastEventId));
  const query = params.toString();
  return query ? `/api/events?${query}` : '/api/events';
}

const ephemeral = new Set<LiveEventType>(ephemeralEventTypes);
const badgeCountsAnswer = lazySchema(() => import('@contract/badges.ts').then((m) => m.badgeCounts));

/**
 * The events' schemas, fetched with the first event rather than with this module (issue 41): the stream opens
 * on a member's first screen, and zod with the contract would otherwise come into its first load. Events
 * that arrive meanwhile wait, in order, and are checked as every later one is. Not loaded (offline, a new
 * deploy): tried again with the next event, or when the stream opens again. The waiting events belong to
 * the stream's session: a stop drops them, so none reaches the next session's listeners.
 */
let payloadSchemas: Promise<typeof liveEventPayloads> | null = null;
let loadedSchemas: typeof liveEventPayloads | null = null;
const waiting: { type: LiveEventType; data: unknown; id: number | null }[] = [];

function deliver(schemas: typeof liveEventPayloads, type: LiveEventType, data: unknown, id: number | null): void {
  const parsed = schemas[type].safeParse(data);
  if (!parsed.success) return;
  // The type and its schema come from the same entry, which TypeScript cannot follow through the lookup.
  const event = { type, payload: parsed.data, id } as ReceivedEvent;
  for (const listener of listeners) {
    // One listener's bug must not keep the event from the others, nor the waiting events after it: reported
    // as uncaught (the console, the browser tests), off this loop.
    try {
      listener(event);
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}

/** Loads the schemas if need be, then hands the waiting events on in order. */
function deliverWaiting(): void {
  if (waiting.length === 0) return;
  payloadSchemas ??= import('@contract/events.ts').then((m) => m.liveEventPayloads);
  payloadSchemas.then(
    (schemas) => {
      loadedSchemas = schemas;
      for (const event of waiting.splice(0)) deliver(schemas, event.type, event.data, event.id);
    },
    () => {
      payloadSchemas = null;
    },
  );
}

function receive(type: LiveEventType, message: MessageEvent<string>): void {
  // An event that is not a row comes without an `id:`, and the browser hands it the last id it had: that id
  // is not its own, so it is neither a copy nor a step of the cursor.
  const id = message.lastEventId && !ephemeral.has(type) ? Number(message.lastEventId) : null;
  // The server sends each stream's events in id order from its cursor: an id not past the last one is a
  // copy (a replay racing a live send) and was handled already.
  if (id !== null && Number.isInteger(id)) {
    if (lastEventId !== null && id <= lastEventId) return;
    lastEventId = id;
  }
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch {
    return;
  }
  if (loadedSchemas) {
    deliver(loadedSchemas, type, data, id);
    return;
  }
  waiting.push({ type, data, id });
  deliverWaiting();
}

function connect(): void {
  window.clearTimeout(retryTimer);
  retryTimer = undefined;
  source?.close();
  const stream = new EventSource(streamUrl(), { withCredentials: true });
  source = stream;
  for (const type of liveEventTypes) {
    stream.addEventListener(type, (message: MessageEvent<string>) => receive(type, message));
  }
  stream.onopen = () => {
    retryDelayMs = 1000;
    // The reading-again first (it joins the first reads still waiting), then the waiting reads go.
    for (const listener of openListeners) listener();
    liveStreamOpen(true);
    // Events still waiting for schemas that did not load: the connection is back, so try again.
    deliverWaiting();
  };
  stream.onerror = () => {
    // CONNECTING: the browser is retrying by itself (with Last-Event-ID). CLOSED: it gave up.
    if (stream.readyState !== EventSource.CLOSED || source !== stream) return;
    liveStreamOpen(false);
    stream.close();
    source = null;
    void retryUnlessSignedOut();
  };
}

/**
 * An EventSource cannot tell why it gave up: a 401 (the session ended) looks like a network failure. So the
 * session is tried once through the API client first (a small members-only read), whose 401 tells the session
 * layer (sign-out, which stops this stream); only a stream that may still be answered is tried again, never
 * an ended session.
 */
async function retryUnlessSignedOut(): Promise<void> {
  const run = runs;
  let signedOut = false;
  try {
    await api.get('/api/badges', badgeCountsAnswer);
  } catch (error) {
    signedOut = error instanceof ApiError && error.status === 401;
  }
  // Stopped and started again meanwhile (a sign-out, someone else's sign-in), or already reopened (the tab
  // shown again): this answer is not about the stream now running.
  if (run !== runs || source !== null) return;
  if (signedOut) refused = true;
  else scheduleRetry();
}

function scheduleRetry(): void {
  if (!running || refused || retryTimer !== undefined) return;
  // Jitter: many tabs cut by one server restart do not all come back in the same instant.
  const delay = retryDelayMs / 2 + Math.random() * (retryDelayMs / 2);
  retryDelayMs = Math.min(retryDelayMs * 2, maxRetryDelayMs);
  retryTimer = window.setTimeout(connect, delay);
}

/** Back now (tab shown, network up): a stream the browser gave up on, or is slowly retrying, starts again at once. */
function reviveNow(): void {
  if (!running || refused || document.visibilityState !== 'visible' || source?.readyState === EventSource.OPEN) return;
  retryDelayMs = 1000;
  connect();
}

/**
 * Opens the stream and keeps it open until the returned function is called (sign-out, someone else signs
 * in). The first event id is the server's newest at that moment: events from before are not replayed.
 */
export function startLiveEvents(): () => void {
  running = true;
  runs += 1;
  refused = false;
  lastEventId = null;
  retryDelayMs = 1000;
  connect();
  document.addEventListener('visibilitychange', reviveNow);
  window.addEventListener('online', reviveNow);
  return () => {
    running = false;
    waiting.length = 0;
    liveStreamOpen(false);
    window.clearTimeout(retryTimer);
    retryTimer = undefined;
    source?.close();
    source = null;
    document.removeEventListener('visibilitychange', reviveNow);
    window.removeEventListener('online', reviveNow);
  };
}

/** Calls `listener` with each live event (parsed against the contract); returns the unsubscribe function. */
export function onLiveEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Calls `listener` whenever the stream (re)opens: what it could not tell may need reading again. */
export function onLiveOpen(listener: () => void): () => void {
  openListeners.add(listener);
  return () => openListeners.delete(listener);
}
