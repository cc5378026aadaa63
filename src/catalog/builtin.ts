/**
 * Built-in specs and spec references. `specterm run claude-code` and
 * `specterm run ./my-spec.json` both go through `resolveSpecRef`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CliSpecV4 } from '../core/spec/types.js';
import { loadSpec, type LoadResult, type LoadSpecOptions } from './load-spec.js';

/** `specs/` at the package root (the same relative path from src/catalog and dist/catalog). */
export function builtinSpecsDir(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'specs');
}

/** The package root (where package.json lives). */
export function packageRoot(): string {
  return path.resolve(builtinSpecsDir(), '..');
}

export interface BuiltinSpecEntry {
  id: string;
  path: string;
}

/** Every `specs/<id>/spec.json`, sorted by id. */
export function listBuiltinSpecs(): BuiltinSpecEntry[] {
  const dir = builtinSpecsDir();
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => fs.existsSync(path.join(dir, n, 'spec.json')))
    .sort()
    .map((id) => ({ id, path: path.join(dir, id, 'spec.json') }));
}

export type SpecRef = { ok: true; path: string; builtinId: string | null } | { ok: false; message: string };

/**
 * A spec reference is a path (contains a separator or ends in .json) or a built-in id.
 * An unknown id lists the known ones.
 */
export function resolveSpecRef(ref: string): SpecRef {
  const looksLikePath = ref.includes('/') || ref.includes(path.sep) || ref.endsWith('.json');
  if (looksLikePath) {
    const p = path.resolve(ref);
    if (!fs.existsSync(p)) return { ok: false, message: `spec file not found: ${p}` };
    return { ok: true, path: p, builtinId: null };
  }
  const all = listBuiltinSpecs();
  const hit = all.find((e) => e.id === ref);
  if (hit) return { ok: true, path: hit.path, builtinId: hit.id };
  return {
    ok: false,
    message: `unknown spec "${ref}" (built-in: ${all.map((e) => e.id).join(', ') || 'none'}); pass a built-in id or a path to a spec.json`,
  };
}

/**
 * Replaces `{{specDir}}` (the spec file's folder) and `{{packageRoot}}` in `binary` and
 * `spawn_args`, so a spec can launch a program shipped beside it.
 */
export function materializeSpecPaths(spec: CliSpecV4, specPath: string): CliSpecV4 {
  const specDir = path.dirname(path.resolve(specPath));
  const sub = (s: string) => s.replace(/\{\{specDir\}\}/g, specDir).replace(/\{\{packageRoot\}\}/g, packageRoot());
  return { ...spec, binary: sub(spec.binary), spawn_args: spec.spawn_args?.map(sub) };
}

/** Resolves a reference and loads it with `{{specDir}}` substituted. */
export function loadSpecRef(ref: string, opts: LoadSpecOptions = {}): LoadResult & { builtinId: string | null } {
  const r = resolveSpecRef(ref);
  if (!r.ok) {
    const issue = { path: 'spec', code: 'SPEC_UNKNOWN_REF', message: r.message, severity: 'error' } as const;
    return { ok: false, errors: [r.message], warnings: [], issues: [issue], sourcePath: ref, builtinId: null };
  }
  const loaded = loadSpec(r.path, opts);
  if (!loaded.ok) return { ...loaded, builtinId: r.builtinId };
  return { ...loaded, spec: materializeSpecPaths(loaded.spec, r.path), builtinId: r.builtinId };
}
