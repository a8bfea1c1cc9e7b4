// The service worker that makes the playground work offline once loaded.
// `make site` (scripts/build-site.sh) writes the deployed sw.js as two
// lines defining VERSION (a hash of the site's files) and FILES (every file
// to keep) followed by this file. Strategy: network first, so an online
// user always gets the current site, and the cache when the network fails.
"use strict";
const CACHE = "kueueplay-" + VERSION;

// precacheScenarios puts every gallery scenario into the cache from
// scenarios/bundle.json (file name to text), so they work offline: one
// compressed transfer instead of one per file.
async function precacheScenarios(cache) {
  const res = await fetch("scenarios/bundle.json");
  if (!res.ok) throw new Error(`scenarios/bundle.json: ${res.status}`);
  const texts = await res.json();
  await Promise.all(
    Object.entries(texts).map(([name, text]) =>
      cache.put(new Request(`scenarios/${name}`), new Response(text, { headers: { "Content-Type": "text/plain; charset=utf-8" } })),
    ),
  );
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => Promise.all([cache.addAll(FILES), precacheScenarios(cache)]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("kueueplay-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin) return;
  event.respondWith(
    fetch(req)
      .then((res) => {
        if (res.ok && res.type === "basic") {
          const copy = res.clone();
          caches.open(CACHE).then((cache) => cache.put(req, copy));
        }
        return res;
      })
      .catch(() =>
        caches
          .open(CACHE)
          // The page's own URL carries ?example=… and #v1.…; its cached
          // copy is index.html.
          .then((cache) => cache.match(req, { ignoreSearch: req.mode === "navigate" }).then((hit) => hit || (req.mode === "navigate" ? cache.match("./") : undefined)))
          .then((hit) => hit || Response.error()),
      ),
  );
});
