{% load static %}// Darkroom's service worker (served at /sw.js, scope "/"): shows the pushes the server sends
// (games/notifications/push.py), opens the game when one is clicked, and keeps an offline shell.
//
// The shell: the page and its static files, each answered from the network when there is one
// (so a new client is never hidden behind an old cache) and from the cache when there is none, so
// the installed app opens offline and says so instead of the browser's error page. The API is
// never cached: a game shown from a cache could show a move that is no longer legal.
const SHELL = "darkroom-shell-v1";
const PRECACHE = ["/", "{% static 'web/app.css' %}", "{% static 'web/app.js' %}", "{% static 'web/api.js' %}",
  "{% static 'web/svg.js' %}", "{% static 'web/i18n.js' %}", "{% static 'web/i18n/en.js' %}",
  "{% static 'web/i18n/fr.js' %}", "{% static 'web/i18n/de.js' %}", "{% static 'web/rules/fr.js' %}", "{% static 'web/rules/de.js' %}", "{% static 'web/front.js' %}",
  "{% static 'web/create.js' %}", "{% static 'web/social.js' %}", "{% static 'web/community.js' %}",
  "{% static 'web/story.js' %}", "{% static 'web/rules.js' %}", "{% static 'web/push.js' %}",
  "{% static 'web/icons/icon-192.png' %}", "/manifest.webmanifest"];

self.addEventListener("install", (event) => {
  // A file missing from the list must not stop the worker (push matters more than the shell).
  event.waitUntil(caches.open(SHELL).then((cache) => Promise.all(PRECACHE.map((url) => cache.add(url).catch(() => null))))
    .then(() => self.skipWaiting()));
});
self.addEventListener("activate", (event) => event.waitUntil((async () => {
  for (const name of await caches.keys()) if (name !== SHELL) await caches.delete(name);
  await self.clients.claim();
})()));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  const page = request.mode === "navigate" && url.pathname === "/";   // the client's one page
  if (!page && !url.pathname.startsWith("/static/") && url.pathname !== "/manifest.webmanifest") return;
  event.respondWith((async () => {
    const cache = await caches.open(SHELL);
    try {
      const answer = await fetch(request);
      if (answer.ok) cache.put(page ? "/" : request, answer.clone());
      return answer;
    } catch (error) {
      const kept = await cache.match(page ? "/" : request, { ignoreSearch: page });
      if (kept) return kept;
      throw error;
    }
  })());
});

self.addEventListener("push", (event) => {
  let message = {};
  try { message = event.data ? event.data.json() : {}; } catch (error) { message = {}; }
  const title = message.title || "Darkroom";
  event.waitUntil(self.registration.showNotification(title, {
    body: message.body || "",
    tag: message.tag,          // a newer push of the same notice replaces the older one
    renotify: Boolean(message.tag),
    data: { url: message.url || "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data && event.notification.data.url || "/", self.location.origin).href;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of windows) {
      if (new URL(client.url).origin === self.location.origin && "focus" in client) {
        await client.navigate(url);
        return client.focus();
      }
    }
    return self.clients.openWindow(url);
  })());
});
