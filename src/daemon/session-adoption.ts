/**
 * What the PTY host keeps about a daemon session so the daemon can take it back after losing its
 * database (issue 24): the host stores an opaque `meta` string with each spawn and returns it in
 * `list`; with it, a session the store does not know is re-adopted with its spec, name, labels and
 * extra args, marked recovered. Never the env overrides nor the auto-approve policy: a recovered
 * session runs its agent as it was started and asks a person for every approval.
 *
 * @module
 */
import type { SessionInfo } from '../host/index.js';
import type { SessionInput, SessionRecord } from '../store/index.js';

/** The `meta` a daemon session is spawned with (version 1). */
interface SessionMeta {
  v: 1;
  spec_id: string | null;
  spec_path: string | null;
  name: string | null;
  labels: Record<string, string>;
  args: string[];
  branch: string | null;
  worktree: string | null;
}

/** The host-side `meta` of a session's run. */
export function sessionMetaOf(record: SessionRecord): string {
  const meta: SessionMeta = {
    v: 1, spec_id: record.specId, spec_path: record.specPath, name: record.name, labels: record.labels,
    args: record.args, branch: record.branch, worktree: record.worktree,
  };
  return JSON.stringify(meta);
}

/** The meta a hosted session carries, or null (a host older than `meta`, or another client's session). */
function readMeta(info: SessionInfo): SessionMeta | null {
  if (!info.meta) return null;
  try {
    const meta = JSON.parse(info.meta) as Partial<SessionMeta>;
    if (meta?.v !== 1) return null;
    const text = (v: unknown) => (typeof v === 'string' ? v : null);
    return {
      v: 1, spec_id: text(meta.spec_id), spec_path: text(meta.spec_path), name: text(meta.name),
      labels: Object.fromEntries(Object.entries(typeof meta.labels === 'object' && meta.labels !== null ? meta.labels : {}).filter(([, v]) => typeof v === 'string')) as Record<string, string>,
      args: Array.isArray(meta.args) ? meta.args.filter((a): a is string => typeof a === 'string') : [],
      branch: text(meta.branch), worktree: text(meta.worktree),
    };
  } catch {
    return null;
  }
}

/** A hosted session the store lost, as the host describes it. */
export interface Orphan {
  info: SessionInfo;
  /** The spec to load (a path or a built-in id), null when the host does not know it. */
  specRef: string | null;
  /** The row to store (then marked recovered); the caller fills in the spec it could load. */
  input: SessionInput;
}

/** The running sessions of `hosted` that no stored session has. */
export function findOrphans(hosted: readonly SessionInfo[], known: ReadonlySet<string>): Orphan[] {
  return hosted.filter((info) => info.alive && !known.has(info.id)).map((info) => {
    const meta = readMeta(info);
    return {
      info,
      specRef: meta?.spec_path ?? meta?.spec_id ?? null,
      input: {
        id: info.id, name: meta?.name ?? null, specId: meta?.spec_id ?? null, specPath: meta?.spec_path ?? null,
        cwd: info.cwd ?? '/', branch: meta?.branch ?? null, worktree: meta?.worktree ?? null, args: meta?.args ?? [],
        labels: meta?.labels ?? {}, cols: info.cols, rows: info.rows, createdAt: info.startedAt,
      },
    };
  });
}
