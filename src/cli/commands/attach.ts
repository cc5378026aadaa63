/**
 * `specterm attach <session> [--read-only]`: a session's live terminal in your own terminal,
 * over the daemon's WebSocket stream (a snapshot, then the raw bytes, acked as written).
 * Keystrokes go to the agent; Ctrl-\ detaches (never forwarded). Unless `--read-only`, attach
 * takes the controller lease and the session follows your terminal's size. Raw mode is
 * restored on every way out: detach, the daemon closing, a signal, an error.
 * @module
 */
import WebSocket from 'ws';
import { decodeTerminalFrame, WS_PATH, WS_SUBPROTOCOL, type ServerMessage } from '../../protocol/index.js';
import { defineCommand } from '../command.js';
import { describeCommand } from '../command-table.js';
import { ClientError, DaemonClient } from '../../client/index.js';
import { resolveRuntimeDir, resolveStateDir } from '../../server/index.js';
import { EXIT_NO_DAEMON } from './daemon-connection.js';
import type { CliIo } from '../io.js';

/** Ctrl-\ (FS): the detach key. */
export const DETACH_KEY = '\x1c';
/** Input messages carry at most this much text (the protocol's bound). */
const MAX_INPUT_CHARS = 4096;
const ENDING_SIGNALS = ['SIGTERM', 'SIGHUP', 'SIGINT'] as const;

export const attachCommand = defineCommand(
  {
    ...describeCommand('attach'),
    positionals: [{ name: 'session', required: true, help: 'the session id (see `specterm ls`)' }],
    flags: {
      readOnly: { type: 'boolean', flag: 'read-only', help: 'watch only: no keystrokes, no resize (the size stays the controller\'s)' },
    },
  },
  async (args, io) => {
    const sessionId = args.positionals[0]!;
    let endpoint;
    try {
      endpoint = DaemonClient.discoverEndpoint({ runtimeDir: resolveRuntimeDir(io.env), stateDir: resolveStateDir(io.env), env: io.env });
    } catch (error) {
      if (!(error instanceof ClientError)) throw error;
      io.stderr.write(`specterm attach: ${error.code}: ${error.message}\n`);
      return EXIT_NO_DAEMON;
    }
    return attach({ ...endpoint, sessionId, readOnly: args.flags.readOnly, io });
  },
);

interface AttachOptions { url: string; token: string; ca?: string[]; sessionId: string; readOnly: boolean; io: CliIo }

function attach(options: AttachOptions): Promise<number> {
  const { sessionId, readOnly, io } = options;
  const stdin = process.stdin;
  const stdout = process.stdout;
  const topic = `terminal/${sessionId}`;
  const socket = new WebSocket(options.url.replace(/^http/, 'ws') + WS_PATH, [WS_SUBPROTOCOL], { headers: { authorization: `Bearer ${options.token}` }, ...(options.ca ? { ca: options.ca } : {}) });
  const wasRaw = stdin.isTTY ? stdin.isRaw : false;
  let finished = false;
  let holdsLease = false;

  return new Promise<number>((resolve) => {
    const restore = () => {
      if (stdin.isTTY) stdin.setRawMode(wasRaw);
      stdin.pause();
    };
    const finish = (code: number, message?: string) => {
      if (finished) return;
      finished = true;
      restore();
      stdin.off('data', onInput);
      stdout.off('resize', onResize);
      process.off('exit', restore);
      for (const signal of ENDING_SIGNALS) process.off(signal, onSignal);
      if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) socket.terminate();
      stdout.write('\x1b[0m\r\n');
      if (message) io.stderr.write(`specterm attach: ${message}\n`);
      resolve(code);
    };
    const onSignal = () => finish(1, 'ended by a signal');
    const send = (message: unknown) => { if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message)); };
    const sendSize = () => { if (holdsLease && stdout.columns && stdout.rows) send({ type: 'resize', session_id: sessionId, cols: stdout.columns, rows: stdout.rows }); };
    const onResize = () => sendSize();
    const onInput = (chunk: Buffer | string) => {
      const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      const detachAt = text.indexOf(DETACH_KEY);
      const typed = detachAt >= 0 ? text.slice(0, detachAt) : text;
      if (!readOnly) for (let i = 0; i < typed.length; i += MAX_INPUT_CHARS) send({ type: 'input', session_id: sessionId, data: typed.slice(i, i + MAX_INPUT_CHARS) });
      if (detachAt >= 0) finish(0, `detached from ${sessionId}`);
    };

    process.on('exit', restore);
    for (const signal of ENDING_SIGNALS) process.on(signal, onSignal);
    socket.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => { body += c.toString('utf8'); });
      res.on('end', () => {
        let detail = `the daemon refused the connection (HTTP ${res.statusCode})`;
        try { detail += `: ${(JSON.parse(body) as { detail?: string }).detail ?? ''}`; } catch { /* not a problem document */ }
        finish(1, detail);
      });
    });
    socket.on('error', (error) => finish(1, `cannot reach the daemon at ${options.url}: ${error.message}; is \`specterm serve\` running?`));
    socket.on('close', () => finish(1, 'the daemon closed the connection'));
    socket.on('open', () => {
      if (stdin.isTTY) stdin.setRawMode(true);
      stdin.on('data', onInput);
      stdin.resume();
      stdout.on('resize', onResize);
      send({ type: 'subscribe', ref: 'attach', topic });
      if (!readOnly) send({ type: 'lease', ref: 'lease', session_id: sessionId, action: 'acquire' });
    });
    socket.on('message', (data, isBinary) => {
      if (isBinary) {
        const buffer = data as Buffer;
        const frame = decodeTerminalFrame(new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength));
        if (!frame) return;
        const end = frame.seq + frame.data.length;
        // Ack once the bytes are out to the terminal: the daemon's measure of how far behind we are.
        stdout.write(frame.data, () => send({ type: 'ack', topic, bytes: end }));
        return;
      }
      const message = JSON.parse(String(data)) as ServerMessage;
      switch (message.type) {
        case 'snapshot':
          // A fresh picture: clear ours (and its scrollback), then draw the daemon's.
          stdout.write('\x1b[0m\x1b[H\x1b[2J\x1b[3J' + message.data);
          break;
        case 'lease':
          holdsLease = message.holder === 'you';
          if (message.ref === 'lease') sendSize();
          break;
        case 'error':
          if (message.ref === 'attach') finish(1, `${message.message} (${message.code})`);
          else if (message.ref !== 'lease') io.stderr.write(`\r\nspecterm attach: ${message.message} (${message.code})\r\n`);
          break;
        default:
          break;
      }
    });
  });
}
