/**
 * Checking webhook configuration before anything is sent. Errors name the field and the fix
 * and never echo a secret or a URL's path (which often is a credential itself).
 *
 * @module
 */
import { isIP } from 'node:net';

/** One webhook as configured. */
export interface WebhookConfig {
  /** A short name, used in reports and stats (never the URL). */
  id: string;
  /** http(s) only; loopback unless `allowNonLoopback`. */
  url: string;
  /** The HMAC key; at least 32 characters (e.g. 32 random bytes as base64url = 43). */
  secret: string;
  /** Only these event types (default: all). */
  events?: Array<(typeof NOTIFICATION_TYPES)[number]>;
  /** A non-loopback receiver sees session contents; it must be asked for explicitly. */
  allowNonLoopback?: boolean;
}

export class WebhookConfigError extends Error {
  readonly code = 'WEBHOOK_CONFIG_INVALID';
  readonly path: string;
  constructor(path: string, message: string) {
    super(`${path}: ${message}`);
    this.name = 'WebhookConfigError';
    this.path = path;
  }
}

/** Every NotificationEvent['type'] of ./webhooks.ts (the compiler checks the two agree there). */
export const NOTIFICATION_TYPES = ['approval.needed', 'turn.finished', 'session.exited', 'session.error', 'spec.error'] as const;
const MIN_SECRET_CHARS = 32;
const ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** 127.0.0.0/8, ::1 and localhost (which resolves to loopback on every system we support). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1' || host === '0:0:0:0:0:0:0:1';
}

function checkOne(config: WebhookConfig, path: string): { config: WebhookConfig; origin: string } {
  if (typeof config !== 'object' || config === null) throw new WebhookConfigError(path, 'expected {id, url, secret}');
  if (typeof config.id !== 'string' || !ID_PATTERN.test(config.id)) {
    throw new WebhookConfigError(`${path}.id`, `${JSON.stringify(config.id)} must be 1–64 characters of A-Z a-z 0-9 _ . -`);
  }
  let url: URL;
  try {
    url = new URL(String(config.url));
  } catch {
    throw new WebhookConfigError(`${path}.url`, 'is not a valid absolute URL; write e.g. http://127.0.0.1:9000/hook');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WebhookConfigError(`${path}.url`, `scheme ${JSON.stringify(url.protocol)} is not allowed; use http: or https:`);
  }
  if (url.username || url.password) {
    throw new WebhookConfigError(`${path}.url`, 'carries credentials (user:password@); URLs end up in logs, so authenticate with the signature instead');
  }
  if (!isLoopbackHost(url.hostname) && config.allowNonLoopback !== true) {
    throw new WebhookConfigError(`${path}.url`, `host ${url.hostname} is not loopback; set allowNonLoopback: true to send session contents to it (prefer https)`);
  }
  if (typeof config.secret !== 'string' || config.secret.length < MIN_SECRET_CHARS) {
    throw new WebhookConfigError(`${path}.secret`, `must be a string of at least ${MIN_SECRET_CHARS} characters; generate one with: node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"`);
  }
  if (config.events !== undefined) {
    if (!Array.isArray(config.events)) throw new WebhookConfigError(`${path}.events`, `expected an array of ${NOTIFICATION_TYPES.join(', ')}`);
    config.events.forEach((type, i) => {
      if (!(NOTIFICATION_TYPES as readonly string[]).includes(type)) {
        throw new WebhookConfigError(`${path}.events[${i}]`, `${JSON.stringify(type)} is not an event type; use one of ${NOTIFICATION_TYPES.join(', ')}`);
      }
    });
  }
  return { config: { ...config, events: config.events ? [...config.events] : undefined }, origin: url.origin };
}

/** Checks every webhook (ids unique); returns each with its origin for reports. */
export function checkWebhookConfigs(webhooks: unknown): Array<{ config: WebhookConfig; origin: string }> {
  if (!Array.isArray(webhooks)) throw new WebhookConfigError('webhooks', 'expected an array');
  const seen = new Set<string>();
  return webhooks.map((w, i) => {
    const checked = checkOne(w as WebhookConfig, `webhooks[${i}]`);
    if (seen.has(checked.config.id)) throw new WebhookConfigError(`webhooks[${i}].id`, `${JSON.stringify(checked.config.id)} is used twice; give each webhook its own id`);
    seen.add(checked.config.id);
    return checked;
  });
}
