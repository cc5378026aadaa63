/**
 * ReDoS screening backed by `recheck` (the edge implementation of the core's `RegexScreen`).
 * Every regex of a spec runs against every screen frame, so one catastrophic pattern can stall
 * the driver; the validator asks a screen about each of them.
 *
 * A verdict depends only on the pattern, its flags and the screener's version, so it is worked
 * out once and kept ({@link verdict-store}): the built-in specs ship theirs, any other pattern's
 * is kept in the user's cache. Three screens read that store:
 * - {@link screenRegexWithRecheck} analyses a pattern it has no verdict for, blocking (the CLI);
 * - {@link screenRegexFromCache} never analyses (a daemon's event loop must not stall), and
 *   answers `unscreened` for a pattern it has no verdict for;
 * - {@link screenRegexesInBackground} analyses a list off the event loop (recheck's agent
 *   process), so that {@link screenRegexFromCache} knows them afterwards.
 * A pattern recheck cannot decide is never stored: it is reported as unscreened every time.
 */
import { createRequire } from 'node:module';
import type { Diagnostics, Parameters as RecheckParameters } from 'recheck';
import type { RegexScreen } from '../core/spec/index.js';
import { defaultVerdictStore, verdictKey, type Verdict, type VerdictStore } from './verdict-store.js';

/**
 * Longest analysis of one pattern. Every built-in pattern is decided in under 2 s on a loaded
 * 2-core machine; a pattern still undecided after this is reported as unscreened, not guessed.
 * `SPECTERM_REDOS_TIMEOUT_MS` raises it for a machine slower than that (or a test that runs
 * beside CPU burners and must not depend on how loaded the box is).
 */
export const SCREEN_TIMEOUT_MS = positiveMs(process.env.SPECTERM_REDOS_TIMEOUT_MS) ?? 10_000;

function positiveMs(text: string | undefined): number | undefined {
  const ms = Number(text);
  return Number.isSafeInteger(ms) && ms > 0 ? ms : undefined;
}
/** Longest attack-string rendering passed on to messages. */
const MAX_ATTACK_CHARS = 120;
/**
 * recheck's own timeout is not a wall-clock bound: a check can run on far past it (seen: 14 min
 * in its agent process). Past this, we stop waiting, report the pattern unscreened, and ask
 * recheck nothing more for {@link STUCK_PAUSE_MS}: what it is still busy with would queue the rest.
 */
const HARD_LIMIT_MS = SCREEN_TIMEOUT_MS + 5_000;
const STUCK_PAUSE_MS = 60_000;
/** Until when recheck is left alone after it overran {@link HARD_LIMIT_MS} (0: it answers). */
let stuckUntil = 0;

type RecheckModule = typeof import('recheck');
let recheckModule: RecheckModule | null = null;

/**
 * recheck, loaded on first use: its blocking call waits on a worker thread (synckit), whose wait
 * is bounded only by SYNCKIT_TIMEOUT, read when synckit loads — so it is set first.
 */
function recheck(): RecheckModule {
  process.env.SYNCKIT_TIMEOUT ??= String(HARD_LIMIT_MS);
  recheckModule ??= createRequire(import.meta.url)('recheck') as RecheckModule;
  return recheckModule;
}

function stuckReason(): string | null {
  return Date.now() < stuckUntil ? `the screen overran ${HARD_LIMIT_MS / 1000} s on an earlier pattern and is left alone for a minute` : null;
}

type ScreenAnswer = ReturnType<RegexScreen>;

function describeAttack(attack: { pattern?: unknown; string?: unknown } | undefined): string | undefined {
  // `pattern` is a compact JS expression ('a'.repeat(31) + '\x00'); the raw string can be 50k chars.
  const text = typeof attack?.pattern === 'string' ? attack.pattern : typeof attack?.string === 'string' ? JSON.stringify(attack.string) : undefined;
  if (text === undefined) return undefined;
  return text.length > MAX_ATTACK_CHARS ? `${text.slice(0, MAX_ATTACK_CHARS - 1)}…` : text;
}

/** recheck's diagnostics as a verdict, or why there is none. */
function toVerdict(diag: Diagnostics): Verdict | { unscreened: string } {
  if (diag.status === 'safe') return { complexity: 'safe' };
  if (diag.status === 'vulnerable') {
    return { complexity: diag.complexity.type === 'exponential' ? 'exponential' : 'polynomial', attack: describeAttack(diag.attack) };
  }
  const kind = diag.error.kind;
  if (kind === 'timeout') return { unscreened: `the screen could not decide within ${SCREEN_TIMEOUT_MS / 1000} s` };
  return { unscreened: `the screen cannot read it (${kind === 'invalid' || kind === 'unsupported' ? diag.error.message : kind})` };
}

/** recheck does not know "d" (indices only; it never changes matching time) nor "v". */
function screenableFlags(flags: string): string | { unscreened: string } {
  if (flags.includes('v')) return { unscreened: 'the screen cannot read the "v" flag' };
  return flags.replace('d', '');
}

/** Called before each pattern that is analysed (not for one whose verdict is known). */
export type ScreenListener = (source: string, flags: string) => void;

/**
 * Screens with recheck, analysing (blocking, up to {@link SCREEN_TIMEOUT_MS}) a pattern with no
 * known verdict and keeping the verdict. Never throws.
 *
 * @example screenRegexWithRecheck('^(a+)+$', '') // { complexity: 'exponential', attack: "'a' + 'a'.repeat(31) + '\\x00'" }
 */
export const screenRegexWithRecheck: RegexScreen = (source, flags) => createBlockingScreen()(source, flags);

/** {@link screenRegexWithRecheck} with a listener told of each analysis, and a store of choice. */
export function createBlockingScreen(options: { onAnalyse?: ScreenListener; store?: VerdictStore } = {}): RegexScreen {
  const store = options.store ?? defaultVerdictStore();
  return (source, flags): ScreenAnswer => {
    if (typeof source !== 'string' || typeof flags !== 'string') return null;
    const known = store.get(verdictKey(source, flags));
    if (known) return known;
    const usable = screenableFlags(flags);
    if (typeof usable !== 'string') return { complexity: 'unscreened', reason: usable.unscreened };
    const stuck = stuckReason();
    if (stuck) return { complexity: 'unscreened', reason: stuck };
    options.onAnalyse?.(source, flags);
    let outcome: Verdict | { unscreened: string };
    const started = Date.now();
    try {
      outcome = toVerdict(recheck().checkSync(source, usable, { timeout: SCREEN_TIMEOUT_MS }));
    } catch (error) {
      if (Date.now() - started >= HARD_LIMIT_MS) {
        stuckUntil = Date.now() + STUCK_PAUSE_MS;
        outcome = { unscreened: `the screen did not answer within ${HARD_LIMIT_MS / 1000} s` };
      } else {
        outcome = { unscreened: `the screen failed (${error instanceof Error ? error.message : String(error)})` };
      }
    }
    if ('unscreened' in outcome) return { complexity: 'unscreened', reason: outcome.unscreened };
    store.put(verdictKey(source, flags), outcome);
    return outcome;
  };
}

/**
 * Answers from known verdicts only, never analysing: a pattern with none is `unscreened` (say
 * so, and screen it with {@link screenRegexesInBackground}). For a process that must not block.
 */
export function createCachedScreen(store: VerdictStore = defaultVerdictStore()): RegexScreen {
  return (source, flags) => {
    if (typeof source !== 'string' || typeof flags !== 'string') return null;
    const known = store.get(verdictKey(source, flags));
    if (known) return known;
    const usable = screenableFlags(flags);
    return { complexity: 'unscreened', reason: typeof usable === 'string' ? 'not screened yet (it is being screened now; reload the spec in a moment)' : usable.unscreened };
  };
}

/** The shared cached screen (see {@link createCachedScreen}). */
export const screenRegexFromCache: RegexScreen = (source, flags) => createCachedScreen()(source, flags);

/**
 * Screens every pattern of `patterns` that has no verdict yet, one at a time in recheck's agent
 * process (the event loop stays free), and keeps each verdict. Resolves to the number analysed;
 * never rejects.
 */
export async function screenRegexesInBackground(
  patterns: Iterable<{ source: string; flags: string }>,
  store: VerdictStore = defaultVerdictStore(),
  options: { analyse?: AsyncAnalyser; hardLimitMs?: number } = {},
): Promise<number> {
  const analyse = options.analyse ?? ((source, flags, params) => recheck().check(source, flags, params));
  const hardLimitMs = options.hardLimitMs ?? HARD_LIMIT_MS;
  let analysed = 0;
  for (const { source, flags } of patterns) {
    const key = verdictKey(source, flags);
    const usable = screenableFlags(flags);
    if (store.get(key) || typeof usable !== 'string') continue;
    // What is left stays unscreened (and is said so by the load) rather than waiting behind it.
    if (stuckReason()) break;
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const overran = new Promise<'overran'>((resolve) => { timer = setTimeout(() => resolve('overran'), hardLimitMs); timer.unref(); });
    try {
      const diag = await Promise.race([analyse(source, usable, { timeout: SCREEN_TIMEOUT_MS, signal: abort.signal }), overran]);
      if (diag === 'overran') {
        abort.abort();
        stuckUntil = Date.now() + STUCK_PAUSE_MS;
        break;
      }
      const outcome = toVerdict(diag);
      analysed++;
      if (!('unscreened' in outcome)) store.put(key, outcome);
    } catch {
      // The agent process failed: the pattern stays unscreened and is reported as such.
    } finally {
      clearTimeout(timer);
    }
  }
  return analysed;
}

/** How the background screen asks recheck (its async `check`); replaceable to test the guard. */
export type AsyncAnalyser = (source: string, flags: string, params: RecheckParameters & { signal: AbortSignal }) => Promise<Diagnostics>;

/** Forgets that recheck overran (tests start each case with a screen that answers). */
export function resetScreenGuard(): void {
  stuckUntil = 0;
}
