/**
 * Spawn planning (spec-format §11): turns a spec plus per-launch options into the exact
 * file, argv, cwd and environment handed to the PTY. Pure apart from reading the file
 * system (binary lookup, the executable's first bytes).
 *
 * Improvement over the reference: a script with a shebang is executed directly by the
 * kernel; a login shell is used only when the file cannot be exec'd on its own. See
 * `docs/spawn.md`.
 *
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CliSpecV4 } from '../core/spec/types.js';
import { findBinary, isBinaryNotFound, isExecutableFile, type FindBinaryErrorCode } from './find-binary.js';

/** Per-launch input of {@link planSpawn}. */
export interface SpawnPlanInput {
  spec: CliSpecV4;
  /** Directory the agent works in; becomes the PTY cwd and replaces `{{workingDir}}`. */
  workingDir: string;
  /** Args appended after the spec's `spawn_args` (flags here replace the spec's same flags). */
  extraArgs?: string[];
  /** Tokens/flags removed from the spec's `spawn_args`. */
  removeArgs?: string[];
  /** Env vars layered over the spec's `env`. */
  extraEnv?: Record<string, string>;
  /** Environment the child inherits. Default `process.env`. */
  baseEnv?: Record<string, string | undefined>;
  /** Platform whose rules apply. Default `process.platform`. */
  platform?: NodeJS.Platform;
  /** Terminal width. Default 80. */
  cols?: number;
  /** Terminal height. Default 32. */
  rows?: number;
  /** Always run through the shell (`$SHELL -l -c` / `cmd.exe /c`), e.g. for shell aliases or profiles. */
  forceShell?: boolean;
}

/** What to hand to the PTY. `env` is complete: pass it verbatim, never overlay `process.env` again. */
export interface SpawnPlan {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  /** The resolved agent executable (absolute). */
  resolvedBinary: string;
  /** True when `file` is a shell (`$SHELL`/`cmd.exe`) wrapping the agent. */
  viaShell: boolean;
  /** The logical argv (`[resolvedBinary, ...args]`) for logs, whether or not a shell wraps it. */
  argvForDisplay: string[];
}

/** Stable codes of {@link SpawnPlanError}. */
export type SpawnPlanErrorCode =
  | FindBinaryErrorCode
  /** `workingDir` does not exist or is not a directory. */
  | 'SPAWN_CWD_INVALID'
  /** `cols`/`rows` is not a positive integer. */
  | 'SPAWN_INVALID_SIZE'
  /** win32: an argument holds a character `cmd.exe` would interpret; refused rather than mis-quoted. */
  | 'SPAWN_UNSAFE_CMD_ARG';

/** Planning failed; `message` names the value and the fix. */
export interface SpawnPlanError {
  code: SpawnPlanErrorCode;
  message: string;
  /** For binary errors: the binary as given. */
  binary?: string;
  /** For binary errors: every directory (or path) searched. */
  searched?: string[];
}

/** Default PTY geometry (spec-format §11 step 6). */
export const DEFAULT_COLS = 80;
export const DEFAULT_ROWS = 32;

/**
 * Shell used when `$SHELL` is unset or unusable. The reference defaults to `/bin/zsh`, which does
 * not exist on most Linux systems; `/bin/sh` exists on every POSIX system.
 */
export const DEFAULT_POSIX_SHELL = '/bin/sh';

/** Env keys removed from the child's environment: package-manager and host-editor leakage. */
const STRIPPED_ENV_PREFIXES = ['npm_', 'PNPM_', 'YARN_', 'BUN_', 'VSCODE_', 'ELECTRON_'] as const;
const STRIPPED_ENV_KEYS = new Set(['INIT_CWD', 'CODEX_THREAD_ID', 'CODEX_INTERNAL_ORIGINATOR_OVERRIDE']);

/** Characters that never need quoting in a POSIX shell word. */
const SAFE_SHELL_WORD = /^[a-zA-Z0-9@%_+=:,./-]+$/;

/** Characters `cmd.exe` interprets even inside an argument: refuse rather than guess the escaping. */
const CMD_META = /[&|<>^%!"\r\n]/;

/** Type guard: true when {@link planSpawn} failed. */
export function isSpawnPlanError(r: SpawnPlan | SpawnPlanError): r is SpawnPlanError {
  return 'code' in r;
}

/**
 * Plans a spawn: remove-args, dedupe against extra args, `{{workingDir}}` substitution, binary
 * lookup, shell wrapping only where needed, and the sanitized child environment.
 *
 * @returns the plan, or an error object (never throws).
 * @example
 * const plan = planSpawn({ spec, workingDir: '/repo', extraArgs: ['--model', 'opus'] });
 * if (isSpawnPlanError(plan)) throw new Error(plan.message);
 * pty.spawn(plan.file, plan.args, { cwd: plan.cwd, env: plan.env, cols: plan.cols, rows: plan.rows });
 */
export function planSpawn(input: SpawnPlanInput): SpawnPlan | SpawnPlanError {
  const platform = input.platform ?? process.platform;
  const isWin = platform === 'win32';
  const baseEnv = input.baseEnv ?? process.env;
  const cols = input.cols ?? DEFAULT_COLS;
  const rows = input.rows ?? DEFAULT_ROWS;
  for (const [field, v] of [['cols', cols], ['rows', rows]] as const) {
    if (!Number.isInteger(v) || v < 1) {
      return { code: 'SPAWN_INVALID_SIZE', message: `${field} must be a positive integer, got ${JSON.stringify(v)}; pass a whole number of cells or omit it for ${field === 'cols' ? DEFAULT_COLS : DEFAULT_ROWS}` };
    }
  }
  const cwd = path.resolve(input.workingDir);
  if (!isDirectory(cwd)) {
    return { code: 'SPAWN_CWD_INVALID', message: `workingDir ${JSON.stringify(input.workingDir)} is not an existing directory; create it or pass another --cwd` };
  }

  const base = removeArgs(input.spec.spawn_args ?? [], input.removeArgs ?? []);
  const extra = input.extraArgs ?? [];
  const args = [...dedupeArgs(base, extra), ...extra].map((a) => substituteWorkingDir(a, cwd));

  const found = findBinary(input.spec.binary, { env: baseEnv, platform, install: input.spec.install });
  if (isBinaryNotFound(found)) {
    return { code: found.code, message: found.message, binary: found.binary, searched: found.searched };
  }
  const env = composeEnv({ baseEnv, specEnv: input.spec.env ?? {}, extraEnv: input.extraEnv ?? {}, workingDir: cwd, platform });
  const argvForDisplay = [found.path, ...args];
  const common = { cwd, env, cols, rows, resolvedBinary: found.path, argvForDisplay };

  if (isWin) {
    if (!input.forceShell && !needsCmdWrapper(found.path)) {
      return { file: found.path, args, viaShell: false, ...common };
    }
    const unsafe = argvForDisplay.find((a) => CMD_META.test(a));
    if (unsafe !== undefined) {
      return {
        code: 'SPAWN_UNSAFE_CMD_ARG',
        message: `argument ${JSON.stringify(unsafe)} must pass through cmd.exe (binary ${found.path} is a batch/script shim) and contains a character cmd.exe interprets (& | < > ^ % ! " or a newline); remove it from spawn_args/extra args or point --binary at a native .exe`,
      };
    }
    return { file: readEnvInsensitive(env, 'ComSpec') ?? 'cmd.exe', args: ['/d', '/c', ...argvForDisplay], viaShell: true, ...common };
  }

  if (!input.forceShell && canExecDirectly(found.path)) {
    return { file: found.path, args, viaShell: false, ...common };
  }
  const shell = chooseShell(env.SHELL);
  return { file: shell, args: ['-l', '-c', 'exec ' + argvForDisplay.map(quotePosixArg).join(' ')], viaShell: true, ...common };
}

/**
 * Removes listed tokens from `args` (§11 step 1): a listed token is removed; a listed `--flag` also
 * removes `--flag=…` tokens; a removed space-separated flag also consumes its following token when
 * that token is not itself a flag.
 */
export function removeArgs(args: readonly string[], remove: readonly string[]): string[] {
  if (remove.length === 0) return [...args];
  const removeSet = new Set(remove);
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (removeSet.has(a)) {
      if (isFlag(a) && i + 1 < args.length && !isFlag(args[i + 1]!)) i++;
      continue;
    }
    const eq = a.indexOf('=');
    if (isFlag(a) && eq > 0 && removeSet.has(a.slice(0, eq))) continue;
    out.push(a);
  }
  return out;
}

/**
 * Drops from `base` every flag that `extra` declares (§11 step 2), together with its following
 * non-flag value token. Flags are compared after cutting at `=`; `-` and `--` are not flags.
 */
export function dedupeArgs(base: readonly string[], extra: readonly string[]): string[] {
  const declared = new Set(extra.filter(isFlag).map(flagName));
  if (declared.size === 0) return [...base];
  const out: string[] = [];
  for (let i = 0; i < base.length; i++) {
    const a = base[i]!;
    if (isFlag(a) && declared.has(flagName(a))) {
      if (!a.includes('=') && i + 1 < base.length && !isFlag(base[i + 1]!)) i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

/** Replaces every `{{workingDir}}` in `arg` with `workingDir`. */
export function substituteWorkingDir(arg: string, workingDir: string): string {
  return arg.split('{{workingDir}}').join(workingDir);
}

/** Input of {@link composeEnv}. */
export interface ComposeEnvInput {
  baseEnv: Record<string, string | undefined>;
  specEnv: Record<string, string>;
  extraEnv: Record<string, string>;
  workingDir: string;
  platform: NodeJS.Platform;
}

/**
 * Builds the child's complete environment (§11 step 5): `{...baseEnv, ...specEnv, ...extraEnv}`
 * keeping only strings; package-manager/editor leakage removed; colour defaults unless `NO_COLOR`;
 * `TERMINAL_CWD = workingDir`.
 */
export function composeEnv(input: ComposeEnvInput): Record<string, string> {
  const env: Record<string, string> = {};
  for (const layer of [input.baseEnv, input.specEnv, input.extraEnv]) {
    for (const [k, v] of Object.entries(layer)) {
      if (typeof v === 'string') env[k] = v;
    }
  }
  for (const k of Object.keys(env)) {
    if (STRIPPED_ENV_KEYS.has(k) || STRIPPED_ENV_PREFIXES.some((p) => k.startsWith(p))) delete env[k];
  }
  // no-color.org: "present and not an empty string" disables colour.
  if (!env.NO_COLOR) {
    if (!env.TERM || env.TERM === 'xterm-color') env.TERM = 'xterm-256color';
    if (!env.COLORTERM) env.COLORTERM = 'truecolor';
    if (input.platform === 'win32') {
      env.FORCE_COLOR ??= '1';
      env.CLICOLOR ??= '1';
    }
  }
  env.TERMINAL_CWD = input.workingDir;
  return env;
}

/**
 * Quotes one word for a POSIX shell: unchanged when it only holds `[a-zA-Z0-9@%_+=:,./-]`,
 * otherwise single-quoted with embedded `'` written as `'\''`. The empty string becomes `''`.
 */
export function quotePosixArg(arg: string): string {
  if (SAFE_SHELL_WORD.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** How the kernel would treat a file, judged from its first bytes. */
export type ExecutableKind = 'native' | 'shebang' | 'bom-shebang' | 'other' | 'unreadable';

/**
 * Classifies `file` by its first bytes: ELF or Mach-O (`native`), `#!` (`shebang`), a UTF-8 BOM
 * then `#!` (`bom-shebang`, which the kernel rejects), anything else (`other`), or `unreadable`.
 */
export function classifyExecutable(file: string): ExecutableKind {
  let head: Buffer;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      head = Buffer.alloc(5);
      const n = fs.readSync(fd, head, 0, 5, 0);
      head = head.subarray(0, n);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return 'unreadable';
  }
  if (head.length >= 4) {
    const magic = head.readUInt32BE(0);
    if (magic === 0x7f454c46) return 'native'; // \x7fELF
    // Mach-O 32/64 in both byte orders, and universal ("fat") binaries.
    if ([0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe].includes(magic)) return 'native';
  }
  if (head[0] === 0x23 && head[1] === 0x21) return 'shebang';
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf && head[3] === 0x23 && head[4] === 0x21) return 'bom-shebang';
  return 'other';
}

/**
 * POSIX: whether execve() can run `file` itself. Native binaries and `#!` scripts can; a file the
 * kernel would reject (no magic, BOM before `#!`, not executable) needs the shell. An unreadable but
 * executable file is handed to the kernel, which is the only one able to judge it.
 */
export function canExecDirectly(file: string): boolean {
  if (!isExecutableFile(file, false)) return false;
  const kind = classifyExecutable(file);
  return kind === 'native' || kind === 'shebang' || kind === 'unreadable';
}

/** win32: `.cmd`/`.bat` shims (and anything not `.exe`/`.com`) run through `cmd.exe /c`. */
function needsCmdWrapper(file: string): boolean {
  const ext = path.win32.extname(file).toLowerCase();
  return ext !== '.exe' && ext !== '.com';
}

/** `$SHELL` when it is an absolute path to an executable, else {@link DEFAULT_POSIX_SHELL}. */
function chooseShell(shell: string | undefined): string {
  if (shell && path.posix.isAbsolute(shell) && isExecutableFile(shell, false)) return shell;
  return DEFAULT_POSIX_SHELL;
}

function isFlag(token: string): boolean {
  return token.startsWith('-') && token !== '-' && token !== '--';
}

function flagName(token: string): string {
  const eq = token.indexOf('=');
  return eq > 0 ? token.slice(0, eq) : token;
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

function readEnvInsensitive(env: Record<string, string>, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(env)) if (k.toLowerCase() === lower) return v;
  return undefined;
}
