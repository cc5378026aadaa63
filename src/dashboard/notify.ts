/**
 * Notifications in the browser: registers the service worker (/sw.js, which shows Web Push
 * messages and opens their session on click) and, on a user gesture, asks for the
 * Notification permission and subscribes this browser to the daemon's Web Push.
 * @module
 */
import { call } from './api-client.js';

/** Registers /sw.js; resolves null where service workers are missing (an insecure origin). */
export async function registerServiceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator)) return null;
  try {
    return await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  } catch {
    return null;
  }
}

/**
 * Call from a click: asks for permission, then subscribes to push. Says what happened in words
 * (push needs a push service the browser can reach; without one the page still notifies).
 */
export async function enableNotifications(): Promise<string> {
  if (!('Notification' in globalThis)) return 'this browser has no notifications';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return `notifications are ${permission}; allow them in the site settings`;
  const registration = await navigator.serviceWorker?.ready;
  if (!registration || !('pushManager' in registration)) return 'notifications on (no Web Push in this browser)';
  try {
    const { public_key: key } = await call('getPushKey');
    const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlBytes(key) });
    const json = subscription.toJSON() as { endpoint: string; expirationTime?: number | null; keys: { p256dh: string; auth: string } };
    await call('subscribePush', { body: { endpoint: json.endpoint, expirationTime: json.expirationTime ?? null, keys: json.keys } });
    return 'notifications on, with Web Push';
  } catch (error) {
    return `notifications on; Web Push unavailable (${error instanceof Error ? error.message : String(error)})`;
  }
}

function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
