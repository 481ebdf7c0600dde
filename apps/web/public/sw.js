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

// Web Push: the server sends { title, body, url, tag } for each notification (modules/push).
self.addEventListener('push', (event) => {
  let message = { title: 'Sutura', body: '', url: null, tag: undefined };
  try {
    message = { ...message, ...event.data.json() };
  } catch {
    if (event.data) message.body = event.data.text();
  }
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      tag: message.tag,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: message.url || '/dashboard' },
    }),
  );
});

// A click focuses a window of the app already open (and takes it to the page), or opens one.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || '/dashboard', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (windows) => {
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (open) {
        await open.focus();
        return 'navigate' in open ? open.navigate(target) : undefined;
      }
      return self.clients.openWindow(target);
    }),
  );
});
