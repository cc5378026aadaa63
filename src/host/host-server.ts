/**
 * The host: sessions by id, and the Unix-socket server that serves them to clients. It holds
 * no spec logic and no HTTP; it must outlive every client, so each connection's failures stay
 * with that connection (see host-connection.ts).
 *
 * @module
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import { SpawnError } from '../terminal/index.js';
import { HostError, messageOf } from './errors.js';
import { ClientConnection } from './host-connection.js';
import { listenExclusive } from './host-listen.js';
import { HostSession } from './host-session.js';
import type { SpawnParams } from './wire.js';

/**
 * Output bytes kept per session (256 KiB): what a restarted daemon rebuilds its screen from. A
 * full repaint of a 200×60 TUI is 12–40 KB, and for an Ink-style agent streaming ~13 KB/s the last
 * 256 KiB rebuild the viewport and all 256 scrollback rows the daemon keeps
 * (test/host/ring-rebuild.test.ts; 96 KiB does not). A streaming session fills its ring within a
 * minute and then holds it whole, so the size is the host's RSS per session (docs/performance.md).
 */
export const DEFAULT_RING_BYTES = 256 * 1024;

/** Unread bytes queued to one client before it is dropped (8 MiB): it reattaches with `since`. */
export const DEFAULT_MAX_CLIENT_BACKLOG_BYTES = 8 * 1024 * 1024;

/**
 * The same for the daemon's connection (hello `client: "daemon"`, 32 MiB): it carries every
 * session, so dropping it costs every session a reattach and a replay, while a viewer's drop
 * costs one viewer. A loaded daemon catches up from a backlog; it reconnects past it.
 */
export const DEFAULT_MAX_DAEMON_BACKLOG_BYTES = 32 * 1024 * 1024;

/** The hello `client` name of the daemon's connection. */
export const DAEMON_CLIENT_NAME = 'daemon';

/** How long shutdown waits for children to exit after SIGHUP (the transport's SIGKILL comes at 2 s). */
const SHUTDOWN_WAIT_MS = 3000;

/** Options of {@link HostServer}. */
export interface HostServerOptions {
  socketPath: string;
  /** Ring capacity per session; default {@link DEFAULT_RING_BYTES}. */
  ringBytes?: number;
  /** Per-client backlog limit; default {@link DEFAULT_MAX_CLIENT_BACKLOG_BYTES}. */
  maxClientBacklogBytes?: number;
  /** The daemon connection's backlog limit; default {@link DEFAULT_MAX_DAEMON_BACKLOG_BYTES}. */
  maxDaemonBacklogBytes?: number;
  /** Where log lines go (default: stderr). Never receives env values or written data. */
  log?: (line: string) => void;
  /** Called once a client asked the host to shut down and it has. */
  onShutdown?: () => void;
}

/** The long-lived PTY host. */
export class HostServer {
  readonly socketPath: string;
  readonly ringBytes: number;
  readonly maxClientBacklogBytes: number;
  readonly maxDaemonBacklogBytes: number;
  readonly log: (line: string) => void;
  readonly #sessions = new Map<string, HostSession>();
  readonly #clients = new Set<ClientConnection>();
  readonly #server: net.Server;
  readonly #onShutdown: (() => void) | undefined;
  #closing: Promise<void> | null = null;

  constructor(options: HostServerOptions) {
    this.socketPath = options.socketPath;
    this.ringBytes = options.ringBytes ?? DEFAULT_RING_BYTES;
    this.maxClientBacklogBytes = options.maxClientBacklogBytes ?? DEFAULT_MAX_CLIENT_BACKLOG_BYTES;
    this.maxDaemonBacklogBytes = options.maxDaemonBacklogBytes ?? DEFAULT_MAX_DAEMON_BACKLOG_BYTES;
    this.log = options.log ?? ((line) => process.stderr.write(`${new Date().toISOString()} specterm-host: ${line}\n`));
    this.#onShutdown = options.onShutdown;
    this.#server = net.createServer((socket) => this.#accept(socket));
    // A failing accept (EMFILE) must not take the host down with its sessions.
    this.#server.on('error', (error) => this.log(`server error: ${messageOf(error)}`));
  }

  /** Binds the socket (see {@link listenExclusive}). */
  async listen(): Promise<void> {
    await listenExclusive(this.#server, this.socketPath);
    this.log(`listening on ${this.socketPath} (pid ${process.pid}, ring ${this.ringBytes} bytes per session)`);
  }

  /** The session with this id, or a `HOST_UNKNOWN_SESSION` error. */
  session(id: string): HostSession {
    const session = this.#sessions.get(id);
    if (!session) throw new HostError('HOST_UNKNOWN_SESSION', `no session ${JSON.stringify(id)} in this host; list the sessions to see their ids`, { id });
    return session;
  }

  sessions(): HostSession[] {
    return [...this.#sessions.values()];
  }

  /** Starts a child; a spawn failure is a `HOST_SPAWN_FAILED` error with the terminal layer's code. */
  spawn(params: SpawnParams): HostSession {
    const id = params.id ?? `s-${crypto.randomBytes(6).toString('base64url')}`;
    if (this.#sessions.has(id)) throw new HostError('HOST_SESSION_EXISTS', `session ${JSON.stringify(id)} already exists; pick another id or remove it first`, { id });
    let session: HostSession;
    try {
      session = new HostSession({
        id,
        request: { file: params.file, args: params.args, cwd: params.cwd, env: params.env, cols: params.cols, rows: params.rows },
        meta: params.meta,
        ringBytes: this.ringBytes,
        log: this.log,
      });
    } catch (error) {
      if (error instanceof SpawnError) throw new HostError('HOST_SPAWN_FAILED', error.message, { spawnCode: error.code, file: error.file, cwd: error.cwd });
      throw error;
    }
    this.#sessions.set(id, session);
    session.onExit((info) => this.log(`session ${id} (pid ${session.info().pid}) exited: code ${info.exitCode}, signal ${info.signal}`));
    this.log(`session ${id} started: ${JSON.stringify(params.file)} in ${JSON.stringify(params.cwd)}, pid ${session.info().pid}`);
    return session;
  }

  /** Forgets a session: only an exited one, unless `force` (which SIGKILLs it first). */
  remove(id: string, force: boolean): void {
    const session = this.session(id);
    if (session.alive && !force) {
      throw new HostError('HOST_SESSION_ALIVE', `session ${JSON.stringify(id)} is still running; kill it first or remove with force`, { id });
    }
    session.kill('SIGKILL');
    for (const client of this.#clients) client.detach(id);
    session.dispose();
    this.#sessions.delete(id);
    this.log(`session ${id} removed`);
  }

  /**
   * Ends every child (SIGHUP, SIGKILL after the grace), closes the socket and removes it.
   * Idempotent; resolves when done.
   */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  /** Shutdown asked by a client: close, then tell the owner (host-main exits). */
  requestShutdown(): void {
    void this.close().then(() => this.#onShutdown?.());
  }

  async #close(): Promise<void> {
    this.log('shutting down');
    const alive = this.sessions().filter((s) => s.alive);
    const exited = Promise.all(alive.map((s) => new Promise<void>((resolve) => {
      s.onExit(() => resolve());
      s.kill();
    })));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise<void>((resolve) => { timer = setTimeout(resolve, SHUTDOWN_WAIT_MS); })]);
    clearTimeout(timer);
    for (const client of [...this.#clients]) client.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
    try {
      fs.unlinkSync(this.socketPath);
    } catch {
      // Already gone (server.close removes it on some platforms).
    }
  }

  #accept(socket: net.Socket): void {
    if (this.#closing) {
      socket.destroy();
      return;
    }
    const client = new ClientConnection(this, socket);
    this.#clients.add(client);
    socket.once('close', () => this.#clients.delete(client));
  }
}
