// stampcam serve: the service worker. It keeps the page itself (not the photos: those wait in the
// page's own queue, IndexedDB) so the page opens and takes photos while the server is out of reach.
'use strict';
const SHELL = 'stampcam-shell-3';
// A phone's page: '/' for a team member's link, '/phone' for any other.
const FILES = ['/', '/phone', '/page.js', '/phone.js', '/phone.css', '/icon.svg', '/manifest.webmanifest'];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== SHELL).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

// The page's files from the server when it answers (always the newest), else from the cache.
// Everything else (the API, photos, streams) goes to the server as it is.
self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== location.origin || !FILES.includes(url.pathname)) return;
  event.respondWith(fetch(event.request)
    .then((response) => {
      if (response.ok) {
        const copy = response.clone();
        caches.open(SHELL).then((cache) => cache.put(url.pathname, copy));
      }
      return response;
    })
    .catch(() => caches.match(url.pathname)));
});
