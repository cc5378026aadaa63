/**
 * Where ReDoS verdicts are kept, so each pattern is screened once: the verdicts the built-in
 * specs ship (`specs/redos-verdicts.json`, written by `npm run gen:redos`), then the user's cache
 * (`$XDG_CACHE_HOME/specterm/redos-verdicts.json`, else `~/.cache/…`; a private file, 0600 in a
 * 0700 folder). Both are keyed by the pattern and its flags and carry the screener's version:
 * a file from another version is not trusted, and is screened again.
 *
 * The cache is only ever a cache: unreadable or malformed, it is read as empty and replaced on
 * the next write; a write that fails (read-only home, full disk) leaves the verdict in memory.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { builtinSpecsDir } from './builtin.js';

/** A decided verdict (an undecided pattern is never stored). */
export interface Verdict {
  complexity: 'safe' | 'polynomial' | 'exponential';
  attack?: string;
}

/** The file format of both the shipped verdicts and the cache. */
export interface VerdictFile {
  /** `recheck@<version>`: verdicts of another screener are not used. */
  screener: string;
  /** `<flags>/<source>` → verdict. */
  verdicts: Record<string, Verdict>;
}

/** Verdicts a user's cache keeps at most (a spec has ~50 patterns); beyond it, half are dropped and screened again when next needed. */
const MAX_CACHED_VERDICTS = 5_000;
/** The shipped verdicts' file name, beside the built-in specs. */
export const SHIPPED_VERDICTS_FILE = 'redos-verdicts.json';

/** The screener every verdict is tied to. */
export const SCREENER = `recheck@${(createRequire(import.meta.url)('recheck/package.json') as { version: string }).version}`;

/** The key of a pattern: flags first, so the source may hold any character. */
export function verdictKey(source: string, flags: string): string {
  return `${flags}/${source}`;
}

/** Reads a verdict file; null when missing, unreadable, malformed or of another screener. */
export function readVerdictFile(file: string): Map<string, Verdict> | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { screener, verdicts } = parsed as Partial<VerdictFile>;
  if (screener !== SCREENER || typeof verdicts !== 'object' || verdicts === null) return null;
  const map = new Map<string, Verdict>();
  for (const [key, v] of Object.entries(verdicts)) {
    if (isVerdict(v)) map.set(key, v);
  }
  return map;
}

function isVerdict(v: unknown): v is Verdict {
  if (typeof v !== 'object' || v === null) return false;
  const { complexity, attack } = v as Partial<Verdict>;
  return (complexity === 'safe' || complexity === 'polynomial' || complexity === 'exponential') && (attack === undefined || typeof attack === 'string');
}

/** Renders a verdict file (keys sorted, so the shipped file diffs by pattern). */
export function formatVerdictFile(verdicts: ReadonlyMap<string, Verdict>): string {
  const sorted = Object.fromEntries([...verdicts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return `${JSON.stringify({ screener: SCREENER, verdicts: sorted } satisfies VerdictFile, null, 1)}\n`;
}

/** The user's cache file, from the environment (`XDG_CACHE_HOME`, else `HOME/.cache`). */
export function userVerdictCacheFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(env.HOME || os.homedir(), '.cache');
  return path.join(base, 'specterm', 'redos-verdicts.json');
}

/** Known verdicts: shipped ones first, then the cache; new ones go to the cache. */
export class VerdictStore {
  readonly #shippedFile: string;
  readonly #cacheFile: string | null;
  #shipped: Map<string, Verdict> | null = null;
  #cached: Map<string, Verdict> | null = null;

  /** `cacheFile: null` keeps new verdicts in memory only. */
  constructor(options: { shippedFile: string; cacheFile: string | null }) {
    this.#shippedFile = options.shippedFile;
    this.#cacheFile = options.cacheFile;
  }

  get(key: string): Verdict | undefined {
    this.#shipped ??= readVerdictFile(this.#shippedFile) ?? new Map();
    return this.#shipped.get(key) ?? this.#cache().get(key);
  }

  /** Keeps a verdict, in the cache file too (merged with what other processes wrote since). */
  put(key: string, verdict: Verdict): void {
    this.#cache().set(key, verdict);
    if (this.#cacheFile === null) return;
    const merged = readVerdictFile(this.#cacheFile) ?? new Map<string, Verdict>();
    merged.set(key, verdict);
    for (const [k, v] of this.#cache()) if (!merged.has(k)) merged.set(k, v);
    if (merged.size > MAX_CACHED_VERDICTS) [...merged.keys()].slice(0, merged.size - MAX_CACHED_VERDICTS / 2).forEach((k) => merged.delete(k));
    // A whole new file renamed over the old one: a reader never sees half a file.
    const temp = `${this.#cacheFile}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      fs.mkdirSync(path.dirname(this.#cacheFile), { recursive: true, mode: 0o700 });
      fs.writeFileSync(temp, formatVerdictFile(merged), { mode: 0o600 });
      fs.renameSync(temp, this.#cacheFile);
    } catch {
      // A cache that cannot be written costs a second screening later, nothing else.
      fs.rmSync(temp, { force: true });
    }
  }

  #cache(): Map<string, Verdict> {
    this.#cached ??= (this.#cacheFile === null ? null : readVerdictFile(this.#cacheFile)) ?? new Map();
    return this.#cached;
  }
}

let shared: VerdictStore | null = null;

/** The process's store: the built-in specs' verdicts and the user's cache. */
export function defaultVerdictStore(): VerdictStore {
  shared ??= new VerdictStore({ shippedFile: path.join(builtinSpecsDir(), SHIPPED_VERDICTS_FILE), cacheFile: userVerdictCacheFile() });
  return shared;
}
