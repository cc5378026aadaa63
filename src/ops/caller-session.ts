/**
 * The agent session a call is made for, as its transport carries it (HTTP: the
 * `X-Specterm-Caller-Session` header; NATS: the request's `caller_session`), checked the same
 * way for every transport.
 * @module
 */
import { SpectermError } from '../protocol/index.js';

/** One session id, or none; anything else is refused (CALLER_INVALID) naming `where`. */
export function callerSessionOf(value: unknown, where: string): { callerSession?: string } {
  if (value === undefined) return {};
  if (typeof value !== 'string' || !/^[A-Za-z0-9_.-]{1,128}$/.test(value)) {
    throw new SpectermError({ code: 'CALLER_INVALID', detail: `${where} must be one session id (letters, digits, _ . -), as SPECTERM_SESSION_ID holds it; send it once or not at all` });
  }
  return { callerSession: value };
}
