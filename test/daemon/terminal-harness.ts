/**
 * The terminal stream end to end for tests: a real PTY host, sessions of a real FsmDriver over
 * a HostTransport, a `TerminalStream` served by a real `createApiServer` (the admin token from
 * `ensureAdminToken` in a private temp state dir), and WebSocket viewers that keep their own
 * headless xterm fed with snapshot + frames, ack what they rendered, and record every seq gap.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import unicode11 from '@xterm/addon-unicode11';
import xtermHeadless from '@xterm/headless';
import type { Terminal as XtermTerminal } from '@xterm/headless';
import { expect } from 'vitest';
import WebSocket from 'ws';
import { loadSpecRef } from '../../src/catalog/builtin.js';
import { TerminalStream, type TerminalStreamOptions } from '../../src/daemon/index.js';
import { FsmDriver } from '../../src/driver/fsm-driver.js';
import { RealScheduler } from '../../src/driver/schedulers.js';
import type { HostClient } from '../../src/host/host-client.js';
import { HostTransport } from '../../src/host/host-transport.js';
import { decodeTerminalFrame, WS_SUBPROTOCOL, type ServerMessage } from '../../src/protocol/index.js';
import { createApiServer, ensureAdminToken, type ApiServer, type WsHandlers } from '../../src/server/index.js';
import { MemoryTokenStore } from '../helpers/api-server.js';
import { shortPrivateDir, waitFor } from '../host/host-harness.js';

const { Terminal } = xtermHeadless;
const here = path.dirname(fileURLToPath(import.meta.url));
export const TORTURE = path.join(here, 'fixtures', 'terminal-torture.mjs');
export const SCROLLBACK = 2000;

/** The stream's operations as the daemon wires them (its refusals are already the one error type). */
export function servedBy(stream: TerminalStream): WsHandlers {
  return { subscribe: stream.subscribe, input: stream.input, resize: stream.resize, lease: stream.lease };
}

/** What the daemon-side screens' xterm logged as errors (a parse error there is the stream's input, not the stream). */
export const daemonProblems: string[] = [];

export interface TestSession { id: string; driver: FsmDriver; transport: HostTransport }

/** A driver (demo-agent spec, harmless on any output) over a new host session running `file args`. */
export function startSession(client: HostClient, options: { id: string; file: string; args: string[]; cwd: string; cols?: number; rows?: number; env?: Record<string, string>; trustHome?: string }): TestSession {
  const spec = loadSpecRef('demo-agent');
  if (!spec.ok) throw new Error(spec.errors.join('\n'));
  const transport = new HostTransport({ client, target: { mode: 'spawn', id: options.id } });
  const cols = options.cols ?? 100;
  const rows = options.rows ?? 30;
  const env = { PATH: process.env.PATH ?? '', HOME: options.cwd, TERM: 'xterm-256color', ...options.env };
  const driver = new FsmDriver({
    spec: spec.spec, workingDir: options.cwd, transport, scheduler: new RealScheduler(), cols, rows, scrollback: SCROLLBACK, applyTrust: options.trustHome !== undefined, homeDir: options.trustHome,
    spawnPlan: { file: options.file, args: options.args, cwd: options.cwd, env, cols, rows, resolvedBinary: options.file, viaShell: false, argvForDisplay: [options.file, ...options.args] },
  });
  const noop = () => {};
  driver.screen.headless.options.logger = { trace: noop, debug: noop, info: noop, warn: noop, error: (m: string, ...rest: unknown[]) => daemonProblems.push(`${options.id} ${m} ${JSON.stringify(rest).slice(0, 300)}`) };
  driver.start();
  return { id: options.id, driver, transport };
}

export interface StreamServer {
  server: ApiServer;
  stream: TerminalStream;
  sessions: Map<string, TestSession>;
  wsUrl: string;
  adminToken: string;
  stateDir: string;
  tokens: MemoryTokenStore;
  close(): Promise<void>;
}

export async function startStreamServer(options: Partial<Omit<TerminalStreamOptions, 'sessions'>> = {}): Promise<StreamServer> {
  const stateDir = shortPrivateDir();
  const { token: adminToken } = ensureAdminToken(stateDir);
  const sessions = new Map<string, TestSession>();
  const stream = new TerminalStream({ ...options, sessions: (id) => sessions.get(id) });
  const tokens = new MemoryTokenStore(Date.now);
  const server = await createApiServer({ tokens, adminToken, ws: servedBy(stream), log: () => {} });
  return {
    server, stream, sessions, adminToken, stateDir, tokens, wsUrl: server.url.replace('http', 'ws') + '/api/v1/ws',
    close: async () => {
      stream.close();
      await server.close();
      for (const s of sessions.values()) s.driver.shutdown();
    },
  };
}

/** Every line of both buffers and the cursor: what "the same screen" means here. */
export function screenText(term: XtermTerminal): string {
  const dump = (buffer: XtermTerminal['buffer']['normal']) => {
    const lines: string[] = [];
    for (let y = 0; y < buffer.length; y++) lines.push(buffer.getLine(y)?.translateToString(true) ?? '');
    return lines.join('\n');
  };
  const active = term.buffer.active;
  return `${active.type} ${term.cols}x${term.rows} cursor ${active.cursorX},${active.cursorY}\n--normal--\n${dump(term.buffer.normal)}\n--alternate--\n${dump(term.buffer.alternate)}`;
}

/** A WebSocket viewer with its own headless xterm. */
export class Viewer {
  readonly socket: WebSocket;
  readonly inbox: ServerMessage[] = [];
  readonly problems: string[] = [];
  term: XtermTerminal | null = null;
  snapshots = 0;
  snapshotInfo: string[] = [];
  /** Seq after the last byte written into `term` (parsed or queued). */
  expected = -1;
  /** Seq after the last byte xterm finished parsing (what we ack). */
  rendered = -1;
  frames = 0;
  readonly opened: Promise<void>;
  readonly closed: Promise<void>;
  #ackEvery: number;
  #lastAck = 0;
  #reading = true;
  get reading(): boolean { return this.#reading; }
  #waiters: Array<() => void> = [];

  constructor(url: string, token: string, readonly sessionId: string, options: { ackEvery?: number; term?: XtermTerminal; expected?: number } = {}) {
    this.#ackEvery = options.ackEvery ?? 1;
    if (options.term) { this.term = options.term; this.expected = options.expected ?? -1; this.rendered = this.expected; }
    this.socket = new WebSocket(url, [WS_SUBPROTOCOL], { headers: { authorization: `Bearer ${token}` } });
    this.socket.on('message', (data, isBinary) => this.#onMessage(data as Buffer, isBinary));
    this.opened = new Promise((resolve, reject) => { this.socket.once('open', () => resolve()); this.socket.once('error', reject); });
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()));
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  async subscribe(since?: number): Promise<void> {
    await this.opened;
    this.send({ type: 'subscribe', ref: 'sub', topic: `terminal/${this.sessionId}`, ...(since === undefined ? {} : { since }) });
    await this.next((m) => m.type === 'subscribed' || m.type === 'error');
  }

  /** Stops reading the socket (a stalled client: the kernel buffers fill, then the server's). */
  stopReading(): void {
    this.#reading = false;
    (this.socket as unknown as { _socket: { pause(): void } })._socket.pause();
  }

  resumeReading(): void {
    this.#reading = true;
    (this.socket as unknown as { _socket: { resume(): void } })._socket.resume();
  }

  async next(predicate: (m: ServerMessage) => boolean, timeoutMs = 20_000): Promise<ServerMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.inbox.findIndex(predicate);
      if (i >= 0) return this.inbox.splice(i, 1)[0]!;
      if (Date.now() > deadline) throw new Error(`no such message; inbox ${JSON.stringify(this.inbox).slice(0, 500)}`);
      await new Promise<void>((resolve) => { const t = setTimeout(resolve, 50); this.#waiters.push(() => { clearTimeout(t); resolve(); }); });
    }
  }

  /** Resolves once xterm parsed everything received so far. */
  drained(): Promise<void> {
    return new Promise((resolve) => { if (!this.term) resolve(); else this.term.write('', resolve); });
  }

  close(): Promise<void> {
    this.socket.close();
    return this.closed;
  }

  #onMessage(data: Buffer, isBinary: boolean): void {
    if (isBinary) this.#onFrame(data);
    else {
      const message = JSON.parse(String(data)) as ServerMessage;
      if (message.type === 'snapshot') this.#onSnapshot(message);
      else this.inbox.push(message);
    }
    this.#waiters.splice(0).forEach((w) => w());
  }

  #onSnapshot(message: Extract<ServerMessage, { type: 'snapshot' }>): void {
    this.snapshots += 1;
    this.snapshotInfo.push(`${message.seq}${message.data.includes('\x1b[?1049h') ? ' alt' : ''}`);
    this.term?.dispose();
    const noop = () => {};
    const logger = { trace: noop, debug: noop, info: noop, warn: noop, error: (m: string, ...rest: unknown[]) => this.problems.push(`xterm: ${m} ${JSON.stringify(rest).slice(0, 300)} (snapshot at ${message.seq})`) };
    const term = new Terminal({ cols: message.cols, rows: message.rows, scrollback: SCROLLBACK, allowProposedApi: true, logger });
    // Cell widths as the daemon's screen and the dashboard's xterm count them (Unicode 11).
    term.loadAddon(new unicode11.Unicode11Addon());
    term.unicode.activeVersion = '11';
    this.term = term;
    term.write(message.data);
    this.expected = message.seq;
    this.rendered = message.seq;
  }

  #onFrame(data: Buffer): void {
    const frame = decodeTerminalFrame(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    if (!frame || !this.term) { this.problems.push('frame before snapshot'); return; }
    if (frame.seq !== this.expected) this.problems.push(`frame at ${frame.seq}, expected ${this.expected}`);
    this.frames += 1;
    const end = frame.seq + frame.data.length;
    this.expected = end;
    const term = this.term;
    term.write(Uint8Array.from(frame.data), () => {
      if (term !== this.term) return;
      this.rendered = end;
      if (end - this.#lastAck >= this.#ackEvery && this.socket.readyState === WebSocket.OPEN) {
        this.#lastAck = end;
        this.send({ type: 'ack', topic: `terminal/${this.sessionId}`, bytes: end });
      }
    });
  }
}

export function cwdDir(): string {
  return fs.realpathSync(shortPrivateDir());
}

const SAME_SCREEN_WAIT_MS = 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the child is quiet and every viewer rendered every byte, then compares screens. */
export async function expectSameScreens(session: TestSession, list: Viewer[], marker: string): Promise<void> {
  await waitFor(() => session.driver.getScreenWithScrollback().includes(marker), SAME_SCREEN_WAIT_MS, `${marker} on the daemon's screen`);
  let seq = -1;
  await waitFor(async () => {
    const now = session.transport.seq;
    const settled = now === seq;
    seq = now;
    if (!settled) { await sleep(150); return false; }
    await Promise.all(list.map((v) => v.drained()));
    return list.every((v) => v.rendered === now);
  }, SAME_SCREEN_WAIT_MS, () => `every viewer at seq ${session.transport.seq}: ${list.map((v) => v.rendered).join(', ')}`);
  expect(daemonProblems, 'the stream itself is well-formed').toEqual([]);
  const daemon = screenText(session.driver.screen.headless);
  for (const v of list) {
    expect(v.problems).toEqual([]);
    expect(screenText(v.term!)).toBe(daemon);
  }
}

