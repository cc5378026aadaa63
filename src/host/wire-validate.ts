/**
 * Runtime checks of the messages a client sends the host: the host trusts nothing that arrives
 * on its socket. Each failure names the field, the value and what was expected.
 *
 * @module
 */
import { constants as osConstants } from 'node:os';
import { dimensionProblem, type Dimension } from '../terminal/index.js';
import { HostError } from './errors.js';
import type { ClientMessage } from './wire.js';

/** Bound on a spawn's `meta`: a spec path, a name and labels fit. */
export const MAX_META_CHARS = 16 * 1024;

/** Session ids: short, printable, safe in paths and logs. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

type Obj = Record<string, unknown>;

function fail(field: string, expected: string, got: unknown): never {
  const shown = JSON.stringify(got);
  const value = shown === undefined ? String(got) : shown.length > 80 ? `${shown.slice(0, 77)}...` : shown;
  throw new HostError('HOST_BAD_MESSAGE', `message field ${field} must be ${expected}, got ${value}`, { field });
}

function str(m: Obj, field: string, opts: { optional?: boolean; nonEmpty?: boolean } = {}): void {
  const v = m[field];
  if (v === undefined && opts.optional) return;
  if (typeof v !== 'string' || (opts.nonEmpty && v.length === 0)) fail(field, opts.nonEmpty ? 'a non-empty string' : 'a string', v);
}

function sessionId(m: Obj, field = 'id', optional = false): void {
  const v = m[field];
  if (v === undefined && optional) return;
  if (typeof v !== 'string' || !SESSION_ID_PATTERN.test(v)) fail(field, 'a session id of 1-64 characters [A-Za-z0-9._-]', v);
}

function dimension(m: Obj, field: Dimension): void {
  const problem = dimensionProblem(field, m[field], `message field ${field}`);
  if (problem !== null) throw new HostError('HOST_BAD_MESSAGE', problem, { field });
}

function checkSpawn(m: Obj): void {
  sessionId(m, 'id', true);
  str(m, 'file', { nonEmpty: true });
  if (!Array.isArray(m.args)) fail('args', 'an array of strings', m.args);
  (m.args as unknown[]).forEach((a, i) => typeof a === 'string' || fail(`args[${i}]`, 'a string', a));
  str(m, 'cwd', { nonEmpty: true });
  str(m, 'meta', { optional: true });
  if (typeof m.meta === 'string' && m.meta.length > MAX_META_CHARS) fail('meta', `a string of at most ${MAX_META_CHARS} characters`, `${m.meta.length} characters`);
  const env = m.env;
  if (typeof env !== 'object' || env === null || Array.isArray(env)) fail('env', 'an object of strings', typeof env);
  // Values are secrets: name the key, never the value.
  for (const [key, value] of Object.entries(env as Obj)) if (typeof value !== 'string') fail(`env.${key}`, 'a string', typeof value);
  dimension(m, 'cols');
  dimension(m, 'rows');
}

/** Validates `value` as a {@link ClientMessage} in place. */
export function assertClientMessage(value: unknown): asserts value is ClientMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('(message)', 'a JSON object', value);
  const m = value as Obj;
  if (!Number.isSafeInteger(m.req) || (m.req as number) < 1) fail('req', 'a positive integer request id', m.req);
  switch (m.type) {
    case 'hello':
      if (!Number.isSafeInteger(m.protocol)) fail('protocol', 'an integer protocol version', m.protocol);
      str(m, 'client', { optional: true });
      return;
    case 'spawn':
      return checkSpawn(m);
    case 'list':
    case 'shutdown':
      return;
    case 'attach':
      sessionId(m);
      if (m.since !== undefined && !(Number.isSafeInteger(m.since) && (m.since as number) >= 0)) fail('since', 'a byte seq (integer >= 0)', m.since);
      return;
    case 'detach':
      return sessionId(m);
    case 'write':
      sessionId(m);
      return str(m, 'data');
    case 'resize':
      sessionId(m);
      dimension(m, 'cols');
      return dimension(m, 'rows');
    case 'kill':
      sessionId(m);
      if (m.signal !== undefined && !(typeof m.signal === 'string' && Object.hasOwn(osConstants.signals, m.signal))) {
        fail('signal', 'a signal name such as "SIGTERM"', m.signal);
      }
      return;
    case 'remove':
      sessionId(m);
      if (m.force !== undefined && typeof m.force !== 'boolean') fail('force', 'a boolean', m.force);
      return;
    default:
      fail('type', 'one of hello, spawn, list, attach, detach, write, resize, kill, remove, shutdown', m.type);
  }
}
