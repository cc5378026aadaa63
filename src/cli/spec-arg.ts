/**
 * Turning a `<spec-id|path>` argument into a loaded spec, with the messages a user needs:
 * an unknown id lists the built-in ones, an invalid file lists its errors.
 *
 * @module
 */
import * as path from 'node:path';
import type { CliSpecV4 } from '../core/spec/types.js';
import { loadSpecRef, resolveSpecRef } from '../catalog/builtin.js';
import { CliUsageError } from './errors.js';

/** A spec ready to run. */
export interface LoadedSpecArg {
  spec: CliSpecV4;
  /** Absolute path of the spec file. */
  path: string;
  /** The built-in id when the reference named one. */
  builtinId: string | null;
  warnings: string[];
}

/**
 * Loads `ref` (a built-in id or a path, relative to `cwd`).
 *
 * @throws CliUsageError when the reference is unknown or the spec is invalid.
 */
export function loadSpecArg(command: string, ref: string, cwd: string): LoadedSpecArg {
  const looksLikePath = ref.includes('/') || ref.includes(path.sep) || ref.endsWith('.json');
  const resolvedRef = looksLikePath ? path.resolve(cwd, ref) : ref;
  const known = resolveSpecRef(resolvedRef);
  if (!known.ok) throw new CliUsageError(command, known.message, 'CLI_UNKNOWN_SPEC');
  const r = loadSpecRef(resolvedRef);
  if (!r.ok) {
    const body = r.errors.length === 1 ? r.errors[0]! : `spec ${ref} is invalid:\n  ${r.errors.join('\n  ')}`;
    throw new CliUsageError(command, body, 'CLI_INVALID_SPEC');
  }
  return { spec: r.spec, path: path.resolve(r.sourcePath), builtinId: r.builtinId, warnings: r.warnings };
}
