/**
 * The daemon's client: typed calls over the protocol's route table, daemon discovery.
 * @module
 */
export { ClientError, DaemonClient, type DiscoverOptions } from './daemon-client.js';
