/* global self, caches, fetch, URL, __ISKRA_SW_PRECACHE__ */
// Iskra's service worker (issue 39): the web site opens at once on a repeat visit and on a flaky network.
// Built into dist/sw.js by pwaPlugin.ts, which fills in the version and the files to keep. Registered by
// the web site only (miniapp/src/lib/serviceWorker.ts), never inside Telegram.
//
// - The app shell (index.html for every app route, boot.js inside it, the icons, the manifest): stale-while-revalidate,
//   answered from the cache at once and refreshed from the network behind it.
// - Hashed files (assets/): cache-first; their names change with their content, so a cached one is never stale.
// - /api/ (and the bot's webhook): never touched, never cached: answers are per user and must be fresh.

const version = '__ISKRA_SW_VERSION__';
/** Every file of this build worth having offline: the shell's addresses and the hashed assets. */
const precache = __ISKRA_SW_PRECACHE__;
const shellCache = `iskra-shell-${version}`;
/** One cache across versions: a hashed file of the next build that did not change is not fetched again. */
const assetCache = 'iskra-assets';
/** The shell's one entry for every app route: the server answers index.html for each of them. */
const shellKey = '/';

const isAsset = (path) => path.startsWith('/assets/');

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const shell = await caches.open(shellCache);
      await shell.addAll(precache.filter((path) => !isAsset(path)));
      const assets = await caches.open(assetCache);
      for (const path of precache.filter(isAsset)) {
        if (!(await assets.match(path))) await assets.add(path);
      }
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name !== shellCache && name !== assetCache) await caches.delete(name);
      }
      // Hashed files of earlier builds that this one no longer names.
      const kept = new Set(precache.filter(isAsset));
      const assets = await caches.open(assetCache);
      for (const request of await assets.keys()) {
        if (!kept.has(new URL(request.url).pathname)) await assets.delete(request);
      }
    })(),
  );
});

/** The cached answer at once (when there is one) while the network refreshes it; the network's otherwise. */
async function staleWhileRevalidate(event, request, key) {
  const cache = await caches.open(shellCache);
  const cached = await cache.match(key);
  const fresh = fetch(request).then(async (response) => {
    if (response.ok) await cache.put(key, response.clone());
    return response;
  });
  if (cached) {
    event.waitUntil(fresh.catch(() => undefined));
    return cached;
  }
  return fresh;
}

async function cacheFirst(request) {
  const cache = await caches.open(assetCache);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const path = url.pathname;
  if (path === '/api' || path.startsWith('/api/') || path.startsWith('/telegram/')) return;
  if (isAsset(path)) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === 'navigate' && !/\.[a-z0-9]+$/i.test(path)) {
    // An app route (no file extension): the one shell; the router in it takes the path.
    event.respondWith(staleWhileRevalidate(event, request, shellKey));
  } else if (precache.includes(path)) {
    event.respondWith(staleWhileRevalidate(event, request, path));
  }
});

// Web Push (issue 39): the server's match, message and like notices, encrypted to this browser. Shown unless
// a window of the app is focused (its live stream shows the same thing there, and a second alert would be
// noise); a newer notice with the same tag (one per chat, one for likes) replaces the older. A tap opens the
// notice's screen in a window of the app if one is open, else in a new one.
self.addEventListener('push', (event) => {
  let notice = null;
  try {
    notice = event.data ? event.data.json() : null;
  } catch {
    notice = null;
  }
  if (!notice || typeof notice.title !== 'string') return;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      if (windows.some((client) => client.focused && client.visibilityState === 'visible')) return;
      await self.registration.showNotification(notice.title, {
        body: typeof notice.body === 'string' ? notice.body : '',
        tag: typeof notice.tag === 'string' ? notice.tag : undefined,
        renotify: typeof notice.tag === 'string',
        icon: '/icons/icon-192.png',
        badge: '/icons/icon-192.png',
        data: {
          url:
            typeof notice.url === 'string' && notice.url.startsWith('/') && !notice.url.startsWith('//')
              ? notice.url
              : '/',
        },
      });
    })(),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url ?? '/', self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      // navigate() works only on a window this worker controls; another is left as it is and a new one opens.
      const open = windows.find(
        (client) => new URL(client.url).origin === self.location.origin && 'navigate' in client,
      );
      const navigated = open ? await open.navigate(target).catch(() => null) : null;
      if (navigated) {
        await navigated.focus();
        return;
      }
      await self.clients.openWindow(target);
    })(),
  );
});
