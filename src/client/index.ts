/**
 * The daemon's client: typed calls over the protocol's route table, daemon discovery.
 * @module
 */
export { ClientError, DaemonClient, type DiscoverOptions } from './daemon-client.js';
export { LAN_CERT_FILE, LAN_KEY_FILE } from './trusted-fetch.js';
export { RECONCILE_MS, RELOAD_DEBOUNCE_MS, reconcileDelay, SessionListFeed, SessionListSync, type ListReload, type SessionListFeedOptions } from './session-list.js';
