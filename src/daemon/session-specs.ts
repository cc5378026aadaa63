/**
 * What a session is made of before it runs: a fresh id, its spec loaded by id or path (refused as
 * the catalog refuses it), and the placeholder spec of a stored session whose own cannot be
 * loaded any more (it is listed, without a driver).
 * @module
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { loadSpecRef } from '../catalog/builtin.js';
import type { CliSpecV4 } from '../core/spec/types.js';
import { DaemonError } from './errors.js';

export function newSessionId(): string {
  return `s_${randomBytes(6).toString('base64url')}`;
}

/** The spec of a session whose own cannot be loaded: it is listed, without a driver. */
export function placeholderSpec(specId: string | null): CliSpecV4 {
  return { id: specId ?? 'unknown', states: [{ id: 'unknown', initial: true }], transitions: [] } as unknown as CliSpecV4;
}

/**
 * Loads a spec id or path; the daemon refuses what the catalog refuses. Never analyses a regex
 * (the event loop serves every client): the caller screens them first (src/catalog/prescreen.ts).
 */
export function loadSpec(ref: string): { spec: CliSpecV4; path: string; builtinId: string | null } {
  const r = loadSpecRef(ref, { redos: 'cached' });
  if (!r.ok) throw new DaemonError('SPEC_NOT_FOUND', `spec ${JSON.stringify(ref)} cannot be loaded: ${r.errors.join('; ')}; pass a built-in id (see \`specterm list\`) or an absolute path to a spec.json`, { path: '/spec' });
  return { spec: r.spec, path: path.resolve(r.sourcePath), builtinId: r.builtinId };
}
