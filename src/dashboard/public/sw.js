// The dashboard's service worker (docs/dashboard.md, "Notifications"): shows the daemon's Web
// Push messages (approval needed, turn finished, exited; decrypted by the browser) when no
// dashboard window is visible, and opens the session they name on click. Plain JS copied as
// is to /sw.js: its scope must be the root.
self.addEventListener('install', () => { self.skipWaiting(); });
self.addEventListener('activate', (event) => { event.waitUntil(self.clients.claim()); });

self.addEventListener('push', (event) => {
  let message;
  try { message = event.data ? event.data.json() : null; } catch { message = null; }
  if (!message || typeof message.title !== 'string') message = { title: 'specterm', body: 'Something needs a look', url: '/', type: 'unknown', session_id: '' };
  const url = typeof message.url === 'string' && message.url.startsWith('/') ? message.url : '/';
  event.waitUntil((async () => {
    // A visible dashboard already says it (its toast; a hidden one shows the same notification
    // itself, same tag): showing the push too would notify twice.
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    if (windows.some((w) => w.visibilityState === 'visible')) return;
    await self.registration.showNotification(message.title, {
      body: message.body, icon: '/icon-192.png', badge: '/icon-192.png',
      // One notification per kind per session: a newer one replaces the older.
      tag: `${message.type}:${message.session_id}`,
      requireInteraction: message.type === 'approval.needed',
      data: { url },
    });
  })());
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? '/', self.location.origin).href;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const same = windows.find((w) => w.url === url) ?? windows[0];
    if (same) {
      await same.focus();
      if (same.url !== url) await same.navigate(url);
      return;
    }
    await self.clients.openWindow(url);
  })());
});
