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
import { check, checkSync, type Diagnostics } from 'recheck';
import type { RegexScreen } from '../core/spec/index.js';
import { defaultVerdictStore, verdictKey, type Verdict, type VerdictStore } from './verdict-store.js';

/**
 * Longest analysis of one pattern. Every built-in pattern is decided in under 2 s on a loaded
 * 2-core machine; a pattern still undecided after this is reported as unscreened, not guessed.
 */
export const SCREEN_TIMEOUT_MS = 10_000;
/** Longest attack-string rendering passed on to messages. */
const MAX_ATTACK_CHARS = 120;

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
    options.onAnalyse?.(source, flags);
    let outcome: Verdict | { unscreened: string };
    try {
      outcome = toVerdict(checkSync(source, usable, { timeout: SCREEN_TIMEOUT_MS }));
    } catch (error) {
      outcome = { unscreened: `the screen failed (${error instanceof Error ? error.message : String(error)})` };
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
export async function screenRegexesInBackground(patterns: Iterable<{ source: string; flags: string }>, store: VerdictStore = defaultVerdictStore()): Promise<number> {
  let analysed = 0;
  for (const { source, flags } of patterns) {
    const key = verdictKey(source, flags);
    const usable = screenableFlags(flags);
    if (store.get(key) || typeof usable !== 'string') continue;
    try {
      const outcome = toVerdict(await check(source, usable, { timeout: SCREEN_TIMEOUT_MS }));
      analysed++;
      if (!('unscreened' in outcome)) store.put(key, outcome);
    } catch {
      // The agent process failed: the pattern stays unscreened and is reported as such.
    }
  }
  return analysed;
}
