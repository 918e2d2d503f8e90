// The hosted site's service worker (dist/ only: `make dist` marks its page with
// data-sw, and writes pkg/precache.js, the list of the site's files and a
// version made of their contents). It keeps the app shell, the module(s) and
// the scenarios' descriptions in one cache per version, so that after a first
// visit the page reloads and runs with the network off. Every file is served
// from the cache first; a new release (a new precache.js: the browser checks it
// on every visit) installs beside the old one, takes over, and deletes the old
// cache; the page then says so (offline.js). Asset names carry their content's
// hash, so an old page never receives a new release's file.
importScripts('./pkg/precache.js');

const { version, files } = self.PRECACHE;
const PREFIX = 'dp-explorer-';
const CACHE = `${PREFIX}${version}`;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // Past the HTTP cache: the files of this release, not an older copy.
    await cache.addAll(files.map((f) => new Request(f, { cache: 'reload' })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // The site is one page: every navigation (any query: the settings) gets the shell.
    const hit = request.mode === 'navigate'
      ? await cache.match(new URL('./', self.registration.scope).href)
      : await cache.match(request);
    return hit || fetch(request);
  })());
});
