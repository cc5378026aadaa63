/**
 * The daemon's PTY host, supervised: finds the host on its socket or starts one, and when the
 * host dies (its connection closes and its pid is gone — told from a slow host at once, not after
 * the 15 s reconnect give-up) starts a new one, so the next session runs instead of failing.
 * The sessions the dead host held end with it (`HOST_GONE`, see session-manager.ts).
 *
 * @module
 */
import { DAEMON_CLIENT_NAME, HostClient, HostError, hostSocketPath, isProcessGone, startHostProcess } from '../host/index.js';

type Log = (level: 'info' | 'warn' | 'error', message: string) => void;

/** Connects to the host of `runtimeDir`, starting one when none answers. */
async function connectHost(runtimeDir: string): Promise<HostClient> {
  const socketPath = hostSocketPath(runtimeDir);
  // Reconnecting: a host that dropped a daemon too busy to read must not freeze every session.
  const connect = { socketPath, clientName: DAEMON_CLIENT_NAME, reconnect: { isHostGone: isProcessGone } };
  try {
    return await HostClient.connect(connect);
  } catch (error) {
    if (!(error instanceof HostError) || error.code !== 'HOST_NOT_RUNNING') throw error;
  }
  try {
    await startHostProcess({ runtimeDir });
  } catch (error) {
    // Another daemon started one at the same moment: use it.
    if (!(error instanceof HostError) || error.code !== 'HOST_ALREADY_RUNNING') throw error;
  }
  return HostClient.connect(connect);
}

export class HostSupervisor {
  readonly #runtimeDir: string;
  readonly #log: Log;
  #client: HostClient;
  /** A replacement host being started, if any. */
  #starting: Promise<HostClient> | null = null;
  #closed = false;

  private constructor(runtimeDir: string, log: Log, client: HostClient) {
    this.#runtimeDir = runtimeDir;
    this.#log = log;
    this.#client = client;
    this.#watch(client);
  }

  /** Finds or starts the host. @throws HostError when it can neither be reached nor started. */
  static async start(runtimeDir: string, log: Log): Promise<HostSupervisor> {
    return new HostSupervisor(runtimeDir, log, await connectHost(runtimeDir));
  }

  /** The current connection (closed while a dead host is being replaced). */
  get client(): HostClient {
    return this.#client;
  }

  /**
   * A live connection: the current one, else the replacement being started, else a new host
   * started now (an earlier replacement failed).
   *
   * @throws HostError `HOST_START_FAILED` (and the like) when no host can be started.
   */
  ready(): Promise<HostClient> {
    if (!this.#client.closed) return Promise.resolve(this.#client);
    return this.#starting ?? this.#replace();
  }

  /** Lets the host go (it keeps running with its agents). Idempotent. */
  close(): void {
    this.#closed = true;
    this.#client.close();
  }

  #watch(client: HostClient): void {
    client.onDisconnect((error) => this.#log('warn', `the PTY host connection dropped (${error.message}); reconnecting, then every session reattaches from its last byte`));
    client.onReconnect(() => this.#log('info', 'reconnected to the PTY host; sessions reattached'));
    client.onClose((error) => {
      if (this.#closed || client !== this.#client) return;
      this.#log('error', `lost the PTY host: ${error.message}; starting a new PTY host for new sessions`);
      // Logged, not thrown: the next ready() tries again.
      this.#replace().catch(() => {});
    });
  }

  #replace(): Promise<HostClient> {
    const starting = connectHost(this.#runtimeDir).then((client) => {
      if (this.#closed) {
        client.close();
        return client;
      }
      this.#client = client;
      this.#watch(client);
      this.#log('info', `started a new PTY host (pid ${client.hostPid})`);
      return client;
    }, (error: unknown) => {
      this.#log('error', `could not start a new PTY host: ${(error as Error).message}`);
      throw error;
    }).finally(() => { this.#starting = null; });
    this.#starting = starting;
    return starting;
  }
}
