// The over-the-board page's service worker (scope /otb): once a table's page has been loaded,
// it opens again without the network. Pages under /otb are fetched from the network first and
// kept; when the network is down the kept page answers (every /otb page is the same single-page
// app). The built scripts and styles (/assets/, content-hashed names) are kept as they are
// fetched and answered from the cache. The API is not touched: the page keeps its own events in
// localStorage and sends them when the network is back.

const CACHE = 'bughouse-otb-v1';

self.addEventListener('install', (event) => {
  event.waitUntil(self.skipWaiting());
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('bughouse-otb-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate' && url.pathname.startsWith('/otb')) {
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok) {
            const copy = response.clone();
            void caches.open(CACHE).then((c) => c.put('/otb-page', copy));
          }
          return response;
        })
        .catch(() => caches.open(CACHE).then((c) => c.match('/otb-page')).then((r) => r ?? Response.error())),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(
      caches.open(CACHE).then((c) =>
        c.match(request).then(
          (hit) =>
            hit ??
            fetch(request).then((response) => {
              if (response.ok) void c.put(request, response.clone());
              return response;
            }),
        ),
      ),
    );
  }
});
