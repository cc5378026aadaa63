/**
 * The typed flag table every sub-command declares, its parser and the generated `--help`.
 * One table per command drives parsing, validation messages and the help text, so they can
 * never disagree.
 *
 * @module
 */
import { CliUsageError } from './errors.js';

/** A flag that is present or absent (`--json`). */
export interface BooleanFlagSpec {
  type: 'boolean';
  /** Spelling on the command line, without the leading `--`. */
  flag: string;
  short?: string;
  help: string;
}

/** A flag with a text value (`--spec demo-agent`). */
export interface StringFlagSpec {
  type: 'string';
  flag: string;
  short?: string;
  /** Placeholder shown in the help, e.g. `FILE`. */
  value: string;
  help: string;
  /** Allowed values; anything else is refused with the list. */
  choices?: readonly string[];
  /**
   * The value when the flag stands alone (`--lan` = `--lan auto`): the value is then optional.
   * The word after the flag is still taken as its value, so use it in commands without positionals.
   */
  bare?: string;
}

/** A flag with a numeric value (`--tail-ms 5000`). */
export interface NumberFlagSpec {
  type: 'number';
  flag: string;
  short?: string;
  value: string;
  help: string;
  /** Smallest accepted value (inclusive). */
  min?: number;
}

export type FlagSpec = BooleanFlagSpec | StringFlagSpec | NumberFlagSpec;

/** A command's flags keyed by the property name the command reads. */
export type FlagTable = Record<string, FlagSpec>;

/** The parsed values of a flag table: booleans default to false, the rest to undefined. */
export type FlagValues<T extends FlagTable> = {
  [K in keyof T]: T[K] extends BooleanFlagSpec ? boolean : T[K] extends NumberFlagSpec ? number | undefined : string | undefined;
};

/** A positional argument in the usage line. */
export interface PositionalSpec {
  name: string;
  required: boolean;
  /** Takes every remaining positional. */
  variadic?: boolean;
  help: string;
}

/** What `parseCommandLine` returns. */
export interface ParsedCommandLine<T extends FlagTable> {
  flags: FlagValues<T>;
  positionals: string[];
  /** Everything after a bare `--` (passed to the agent). */
  passthrough: string[];
  /** `--help` / `-h` was given. */
  help: boolean;
}

/** The static description of a command, used by the parser and the help generator. */
export interface CommandSyntax<T extends FlagTable> {
  name: string;
  summary: string;
  positionals: readonly PositionalSpec[];
  flags: T;
  /** Whether `-- args…` is accepted (and what it means). */
  passthrough?: string;
  /** Extra paragraphs for the help text (examples, exit codes). */
  notes?: readonly string[];
}

/**
 * Parses `argv` (after the command name) against a command's syntax. Accepts `--flag value`,
 * `--flag=value`, `-x value`, and `--` for pass-through arguments.
 *
 * @throws CliUsageError naming the flag, the offending value and the fix.
 */
export function parseCommandLine<T extends FlagTable>(syntax: CommandSyntax<T>, argv: readonly string[]): ParsedCommandLine<T> {
  const values: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(syntax.flags)) values[key] = spec.type === 'boolean' ? false : undefined;
  const positionals: string[] = [];
  let passthrough: string[] = [];
  let help = false;
  const entries = Object.entries(syntax.flags);
  const byName = (name: string) => entries.find(([, s]) => s.flag === name);
  const byShort = (name: string) => entries.find(([, s]) => s.short === name);

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      if (!syntax.passthrough) throw new CliUsageError(syntax.name, `unexpected "--": this command takes no pass-through arguments`, 'CLI_UNEXPECTED_ARGUMENT');
      passthrough = argv.slice(i + 1);
      break;
    }
    if (arg === '--help' || arg === '-h') { help = true; continue; }
    let entry: [string, FlagSpec] | undefined;
    let inline: string | undefined;
    let spelled = arg;
    const long = /^--([^=]+)(?:=([\s\S]*))?$/.exec(arg);
    const short = /^-([A-Za-z])$/.exec(arg);
    if (long) {
      entry = byName(long[1]!);
      inline = long[2];
      spelled = `--${long[1]}`;
    } else if (short) {
      entry = byShort(short[1]!);
    } else {
      positionals.push(arg);
      continue;
    }
    if (!entry) {
      const known = entries.map(([, s]) => `--${s.flag}`).join(', ') || 'none';
      throw new CliUsageError(syntax.name, `unknown flag "${spelled}" (flags: ${known}, --help)`, 'CLI_UNKNOWN_FLAG');
    }
    const [key, spec] = entry;
    if (spec.type === 'boolean') {
      if (inline !== undefined) throw new CliUsageError(syntax.name, `${spelled} takes no value, got "${inline}"; write just ${spelled}`, 'CLI_BAD_VALUE');
      values[key] = true;
      continue;
    }
    let raw = inline;
    if (raw === undefined) {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('-') && next !== '-' && !/^-\d/.test(next))) {
        if (spec.type !== 'string' || spec.bare === undefined) throw new CliUsageError(syntax.name, `${spelled} needs a value (${spec.value})`, 'CLI_MISSING_VALUE');
        raw = spec.bare;
      } else {
        raw = next;
        i++;
      }
    }
    values[key] = convertValue(syntax.name, spelled, spec, raw);
  }

  if (!help) checkPositionals(syntax, positionals);
  return { flags: values as FlagValues<T>, positionals, passthrough, help };
}

function convertValue(command: string, spelled: string, spec: StringFlagSpec | NumberFlagSpec, raw: string): string | number {
  if (spec.type === 'string') {
    if (spec.choices && !spec.choices.includes(raw)) {
      throw new CliUsageError(command, `${spelled} must be one of ${spec.choices.join(', ')}, got "${raw}"`, 'CLI_BAD_VALUE');
    }
    return raw;
  }
  const n = raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isFinite(n)) throw new CliUsageError(command, `${spelled} must be a number (${spec.value}), got "${raw}"`, 'CLI_BAD_VALUE');
  if (spec.min !== undefined && n < spec.min) throw new CliUsageError(command, `${spelled} must be at least ${spec.min}, got ${raw}`, 'CLI_BAD_VALUE');
  return n;
}

function checkPositionals<T extends FlagTable>(syntax: CommandSyntax<T>, positionals: string[]): void {
  const required = syntax.positionals.filter((p) => p.required);
  if (positionals.length < required.length) {
    const missing = required[positionals.length]!;
    throw new CliUsageError(syntax.name, `missing argument ${missing.name} (${missing.help})`, 'CLI_MISSING_ARGUMENT');
  }
  const variadic = syntax.positionals.some((p) => p.variadic);
  if (!variadic && positionals.length > syntax.positionals.length) {
    const extra = positionals[syntax.positionals.length]!;
    const hint = syntax.passthrough ? `; put arguments for the agent after "--"` : '';
    throw new CliUsageError(syntax.name, `unexpected argument "${extra}"${hint}`, 'CLI_UNEXPECTED_ARGUMENT');
  }
}

/** The usage line: `specterm replay <file.cast> --spec <id|path> [flags]`. */
export function formatUsageLine<T extends FlagTable>(syntax: CommandSyntax<T>): string {
  const pos = syntax.positionals.map((p) => {
    // Tables write names bare or already bracketed (`<spec>`, `[button]`): bracket each once.
    const bare = p.name.replace(/^[<[](.*)[>\]]$/, '$1');
    const name = p.variadic ? `${bare}…` : bare;
    return p.required ? `<${name}>` : `[${name}]`;
  });
  const flags = Object.keys(syntax.flags).length ? ['[flags]'] : [];
  const pass = syntax.passthrough ? ['[-- args…]'] : [];
  return ['specterm', syntax.name, ...pos, ...flags, ...pass].join(' ');
}

/** The generated `specterm <command> --help` text. */
export function formatCommandHelp<T extends FlagTable>(syntax: CommandSyntax<T>): string {
  const rows: Array<[string, string]> = [];
  for (const p of syntax.positionals) rows.push([p.name, p.help]);
  for (const s of Object.values(syntax.flags)) {
    const short = s.short ? `-${s.short}, ` : '';
    const value = s.type === 'boolean' ? '' : s.type === 'string' && s.bare !== undefined ? ` [${s.value}]` : ` ${s.value}`;
    const choices = s.type === 'string' && s.choices ? ` (${s.choices.join('|')})` : '';
    rows.push([`${short}--${s.flag}${value}`, `${s.help}${choices}`]);
  }
  if (syntax.passthrough) rows.push(['-- args…', syntax.passthrough]);
  rows.push(['-h, --help', 'show this help']);
  const width = Math.max(...rows.map(([left]) => left.length));
  const out = [`Usage: ${formatUsageLine(syntax)}`, '', syntax.summary, '', ...rows.map(([l, r]) => `  ${l.padEnd(width)}  ${r}`)];
  if (syntax.notes?.length) out.push('', ...syntax.notes);
  return `${out.join('\n')}\n`;
}
