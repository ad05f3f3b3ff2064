// Darkroom's service worker (served at /sw.js, scope "/"): shows the pushes the server sends
// (games/notifications/push.py) and opens the game when one is clicked. It caches nothing.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

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
