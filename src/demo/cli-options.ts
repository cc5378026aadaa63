/**
 * Command-line options of the Demo Agent, declared once as a table that drives both the
 * parser and the `--help` text.
 * @module
 */
import { checkSessionId } from './history.js';

/** Parsed options. */
export interface DemoOptions {
  /** Scenario file; undefined = the bundled default scenario. */
  scenarioPath: string | undefined;
  /** Time multiplier for scenario durations (0.2 = 5× faster). */
  speed: number;
  /** Seed for the spinner-verb choice. */
  seed: number;
  /** Settings file (`--settings`); undefined = `$DEMO_AGENT_HOME/settings.json` or `~/.demo-agent/settings.json`. */
  settingsPath: string | undefined;
  /** Show the folder-trust prompt for untrusted folders (`--no-trust-prompt` turns it off). */
  trustPrompt: boolean;
  /** Enable focus reporting and drop input until a focus-in arrives. */
  focusGated: boolean;
  /** Freeze the screen after a focus-out while generating, until focus-in or a key. */
  freezeOnFocusLoss: boolean;
  /** `--session-id`: the id of a new session's history file (default: a random UUID). */
  sessionId: string | undefined;
  /** `--resume`: continue the session with this id (its history is shown again). */
  resume: string | undefined;
  help: boolean;
  version: boolean;
}

/** Outcome of {@link parseDemoArgs}. */
export type DemoArgsResult = { ok: true; options: DemoOptions } | { ok: false; error: string };

interface FlagSpec {
  name: string;
  value?: string;
  help: string;
  apply(options: DemoOptions, value: string): string | undefined;
}

function parsePositive(flag: string, value: string): number | string {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : `--${flag} must be a positive number such as 0.2, got "${value}"`;
}

const FLAGS: FlagSpec[] = [
  {
    name: 'scenario', value: 'FILE', help: 'scenario JSON file (default: the bundled scenario)',
    apply: (o, v) => { o.scenarioPath = v; return undefined; },
  },
  {
    name: 'speed', value: 'N', help: 'time multiplier for the scenario: 0.2 = 5× faster (default 1)',
    apply: (o, v) => { const n = parsePositive('speed', v); if (typeof n === 'string') return n; o.speed = n; return undefined; },
  },
  {
    name: 'seed', value: 'N', help: 'seed for the spinner verbs (default 1)',
    apply: (o, v) => {
      const n = Number(v);
      if (!Number.isInteger(n)) return `--seed must be an integer, got "${v}"`;
      o.seed = n;
      return undefined;
    },
  },
  {
    name: 'settings', value: 'FILE', help: 'settings file holding trustedFolders (default $DEMO_AGENT_HOME/settings.json or ~/.demo-agent/settings.json)',
    apply: (o, v) => { o.settingsPath = v; return undefined; },
  },
  {
    name: 'session-id', value: 'ID', help: 'id of this session\'s history file (default: a random UUID)',
    apply: (o, v) => { o.sessionId = v; return checkSessionId(v, 'session-id') ?? undefined; },
  },
  {
    name: 'resume', value: 'ID', help: 'continue an earlier session: its conversation is shown again and the history goes on',
    apply: (o, v) => { o.resume = v; return checkSessionId(v, 'resume') ?? undefined; },
  },
  { name: 'no-trust-prompt', help: 'never ask whether to trust the folder', apply: (o) => { o.trustPrompt = false; return undefined; } },
  { name: 'focus-gated', help: 'enable focus reporting; ignore all input until the terminal reports focus (ESC[I)', apply: (o) => { o.focusGated = true; return undefined; } },
  { name: 'freeze-on-focus-loss', help: 'stop repainting after focus-out while generating, until focus-in or a key', apply: (o) => { o.freezeOnFocusLoss = true; return undefined; } },
  { name: 'help', help: 'show this help', apply: (o) => { o.help = true; return undefined; } },
  { name: 'version', help: 'print the version', apply: (o) => { o.version = true; return undefined; } },
];

/** Parses argv (without `node` and the script). Accepts `--flag value` and `--flag=value`. */
export function parseDemoArgs(argv: readonly string[]): DemoArgsResult {
  const options: DemoOptions = {
    scenarioPath: undefined,
    speed: 1,
    seed: 1,
    settingsPath: undefined,
    trustPrompt: true,
    focusGated: false,
    freezeOnFocusLoss: false,
    sessionId: undefined,
    resume: undefined,
    help: false,
    version: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
    const flag = match ? FLAGS.find((f) => f.name === match[1]) : undefined;
    if (match === null || flag === undefined) {
      return { ok: false, error: `unknown argument "${arg}"; run with --help for the options` };
    }
    let value = match[2];
    if (flag.value !== undefined && value === undefined) {
      value = argv[++i];
      if (value === undefined) return { ok: false, error: `--${flag.name} needs a value (${flag.value})` };
    } else if (flag.value === undefined && value !== undefined) {
      return { ok: false, error: `--${flag.name} takes no value, got "${value}"` };
    }
    const error = flag.apply(options, value ?? '');
    if (error !== undefined) return { ok: false, error };
  }
  if (options.sessionId !== undefined && options.resume !== undefined) {
    return { ok: false, error: '--session-id starts a new session and --resume continues one; pass only one of them' };
  }
  return { ok: true, options };
}

/** The `--help` text, generated from the flag table. */
export function formatUsage(): string {
  const rows = FLAGS.map((f) => [`--${f.name}${f.value ? ` ${f.value}` : ''}`, f.help]);
  const width = Math.max(...rows.map(([left]) => left.length));
  return [
    'Usage: demo-agent [options]',
    '',
    'A scripted coding-agent TUI (no network, no AI) for specterm demos and tests.',
    '',
    ...rows.map(([left, help]) => `  ${left.padEnd(width)}  ${help}`),
    '',
  ].join('\n');
}
