// Sutura service worker: keeps the app shell and static assets for offline start, shows
// offline.html when a page cannot be loaded. API calls and the socket are never cached.
const CACHE = 'sutura-shell-v1';
const SHELL = ['/', '/offline.html', '/manifest.webmanifest', '/icons/logo.svg', '/icons/icon-192.png', '/icons/icon-512.png'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

function neverCached(url) {
  return url.origin !== self.location.origin || url.pathname.startsWith('/v1/') || url.pathname.startsWith('/socket.io/');
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (neverCached(url)) return;

  if (request.mode === 'navigate') {
    // Pages always come from the network so a deployment shows at once; offline, the offline page.
    event.respondWith(
      fetch(request).catch(async () => {
        const cache = await caches.open(CACHE);
        return (await cache.match('/offline.html')) ?? Response.error();
      }),
    );
    return;
  }

  // Built assets carry a content hash in their name, so a cached copy is always right.
  if (url.pathname.startsWith('/assets/') || url.pathname.startsWith('/icons/')) {
    event.respondWith(
      caches.open(CACHE).then(async (cache) => {
        const cached = await cache.match(request);
        if (cached) return cached;
        const response = await fetch(request);
        if (response.ok) void cache.put(request, response.clone());
        return response;
      }),
    );
  }
});
