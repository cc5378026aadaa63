/**
 * The PTY host layer: a long-lived process that holds the PTYs (sessions outlive the daemon),
 * its socket protocol, the client, and `HostTransport` for the driver. The only entry point of
 * `src/host` for code outside the folder.
 *
 * @module
 */

// Starting and finding the host.
export { startHostProcess, HOST_ENTRY, type StartHostOptions, type StartedHost } from './launch.js';
export { ensureRuntimeDir, runtimeDirPath, hostSocketPath, HOST_SOCKET_NAME } from './runtime-dir.js';
export { isProcessGone } from './host-process.js';

// Talking to it.
export { HostClient, DEFAULT_CONNECT_TIMEOUT_MS, type HostConnectOptions, type ReconnectOptions, type OutputEvent, type ExitEvent } from './host-client.js';
export { HostTransport, type HostTransportOptions, type HostSessionTarget } from './host-transport.js';

// The host itself (host-main.ts runs it as a process).
export { HostServer, DEFAULT_RING_BYTES, DEFAULT_MAX_CLIENT_BACKLOG_BYTES, DEFAULT_MAX_DAEMON_BACKLOG_BYTES, DAEMON_CLIENT_NAME, type HostServerOptions } from './host-server.js';
export { ByteRing, type RingRead } from './byte-ring.js';

// Wire protocol.
export { HOST_PROTOCOL_VERSION, MAX_FRAME_BYTES, MAX_OUTPUT_FRAME_BYTES, FrameDecoder, encodeJson, encodeOutput, type ClientMessage, type HostMessage, type SessionInfo, type SpawnParams, type AttachResult, type Frame } from './wire.js';
export { SESSION_ID_PATTERN } from './wire-validate.js';

// Errors.
export { HostError, type HostErrorCode } from './errors.js';
