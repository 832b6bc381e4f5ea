/*
 * Moments service worker, registered in the background.
 * Network first for the app's own static files and pages, falling back to the last copy when
 * offline. API, realtime, uploads and media are never touched: they always go to the network.
 */
const CACHE = 'moments-shell-v1';
const NEVER_CACHE = ['/api/', '/sys/', '/files/', '/stomp-ws'];

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (NEVER_CACHE.some((prefix) => url.pathname.startsWith(prefix))) return;
  if (request.headers.get('range')) return;

  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok && response.type === 'basic') {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      })
      .catch(() =>
        caches
          .match(request)
          .then(
            (cached) =>
              cached ||
              (request.mode === 'navigate' ? caches.match('/index.html') : undefined) ||
              Response.error(),
          ),
      ),
  );
});
