/**
 * System notifications from the page itself, for when the tab is hidden (another tab in front,
 * the window minimised) and the person allowed notifications: approval needed, turn finished
 * and exited, with the same words and the same tag as the daemon's Web Push (protocol
 * `notificationMessageOf`; tag `<type>:<session>`), so a newer one replaces the older, and a
 * push for the same event only replaces the page's one silently. Shown through the service
 * worker's registration where there is one (its `notificationclick` focuses this tab and opens
 * the session); a plain `Notification` otherwise. The service worker, for its part, shows a
 * push only when no window of the dashboard is visible.
 * @module
 */
import { notificationMessageOf } from '../protocol/push.js';
import type { DaemonEvent } from '../protocol/events.js';
import { navigate, sessions } from './state.js';

/** Shows the system notification `event` calls for when the page is hidden (a new event only). */
export async function notifyHiddenPage(event: DaemonEvent): Promise<void> {
  if (document.visibilityState === 'visible') return;
  if (!('Notification' in globalThis) || Notification.permission !== 'granted') return;
  const name = sessions.value?.find((s) => s.id === event.session_id)?.name ?? event.session_id;
  const message = notificationMessageOf(event, name);
  if (!message) return;
  const options: NotificationOptions = {
    body: message.body, icon: '/icon-192.png', badge: '/icon-192.png', tag: `${message.type}:${message.session_id}`,
    requireInteraction: message.type === 'approval.needed', data: { url: message.url },
  };
  const registration = await navigator.serviceWorker?.getRegistration().catch(() => undefined);
  if (registration?.active) return registration.showNotification(message.title, options);
  const shown = new Notification(message.title, options);
  shown.onclick = () => { shown.close(); focus(); navigate(message.url); };
}
