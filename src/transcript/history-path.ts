/**
 * A spec's `native_history.path` template made into the file of one session: `${VAR:-fallback}`
 * from the agent's environment, `~` its home, `{session_id}` the CLI's conversation id and the
 * `{cwd…}` encodings CLIs name their project folders by. A template this cannot resolve to one
 * file (a glob, a date the CLI chose) answers null: that session gets no native transcript, and
 * says so, rather than a guessed file.
 * @module
 */
import { createHash } from 'node:crypto';
import path from 'node:path';

export interface HistoryPathContext {
  env: Record<string, string | undefined>;
  home: string;
  cwd: string;
  sessionId: string;
}

const CWD_ENCODINGS: Record<string, (cwd: string) => string> = {
  cwd: (cwd) => cwd.replace(/^\/+/, ''),
  cwd_dashed: (cwd) => cwd.replaceAll('/', '-'),
  // Claude Code: every character that is not a letter or a digit becomes '-'.
  cwd_claude_project: (cwd) => cwd.replace(/[^A-Za-z0-9]/g, '-'),
  // pi (0.73 getDefaultSessionDir): one leading separator off, then '/', '\\' and ':' as '-', between `--`.
  cwd_pi: (cwd) => `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`,
  cwd_sha256: (cwd) => createHash('sha256').update(cwd).digest('hex'),
};

export function resolveHistoryPath(template: string, ctx: HistoryPathContext): string | null {
  if (/[*?]|\{(?:yyyy|mm|dd)\}/.test(template)) return null;
  return fillHistoryPath(template, ctx);
}

/**
 * The template with everything but its dates and wildcards filled: `${VAR:-…}`, `~`, `{cwd…}`,
 * and `{session_id}` (a `*` when the id is not known yet: the file is to be discovered). Null
 * for an unknown placeholder or a path that is not absolute.
 */
export function fillHistoryPath(template: string, ctx: Omit<HistoryPathContext, 'sessionId'> & { sessionId: string | null }): string | null {
  let out = template.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_m, name: string, fallback: string | undefined) => ctx.env[name] || (fallback ?? ''));
  if (out === '~' || out.startsWith('~/')) out = path.join(ctx.home, out.slice(1));
  let unknown = false;
  out = out.replace(/\{([a-z_0-9]+)\}/g, (m, name: string) => {
    if (name === 'session_id') return ctx.sessionId ?? '*';
    if (DATE_PARTS.has(name)) return m;
    const encode = CWD_ENCODINGS[name];
    if (encode) return encode(ctx.cwd);
    unknown = true;
    return m;
  });
  if (unknown || !path.isAbsolute(out)) return null;
  return path.normalize(out);
}

/** The date a CLI files a session under (`{yyyy}/{mm}/{dd}`): filled per day by the discovery. */
const DATE_PARTS = new Set(['yyyy', 'mm', 'dd']);
