/**
 * ReDoS screen backed by `recheck` (the edge implementation of the core's `RegexScreen`).
 * Every regex of a spec runs against every screen frame, so one catastrophic pattern
 * can stall the driver; the validator asks this screen about each of them.
 */
import { checkSync } from 'recheck';
import type { RegexScreen } from '../core/spec/index.js';

/**
 * Upper bound for one analysis; an undecided pattern is "unknown" (null, no message).
 * Classic exponential shapes are decided in tens of ms; long unicode-heavy patterns can
 * take seconds, which would make every spec load slow.
 */
export const CHECK_TIMEOUT_MS = 500;
/** Verdicts kept in memory; specs are hot-reloaded, their patterns rarely change. */
const MAX_CACHED_VERDICTS = 2_000;
/** Longest attack-string rendering passed on to messages. */
const MAX_ATTACK_CHARS = 120;

type Verdict = ReturnType<RegexScreen>;

const verdictCache = new Map<string, Verdict>();

function describeAttack(attack: { pattern?: unknown; string?: unknown } | undefined): string | undefined {
  // `pattern` is a compact JS expression ('a'.repeat(31) + '\x00'); the raw string can be 50k chars.
  const text = typeof attack?.pattern === 'string' ? attack.pattern : typeof attack?.string === 'string' ? JSON.stringify(attack.string) : undefined;
  if (text === undefined) return undefined;
  return text.length > MAX_ATTACK_CHARS ? `${text.slice(0, MAX_ATTACK_CHARS - 1)}…` : text;
}

function analyze(source: string, flags: string): Verdict {
  // recheck does not know "d" (indices only) or "v"; "d" never changes matching time.
  if (flags.includes('v')) return null;
  const diag = checkSync(source, flags.replace('d', ''), { timeout: CHECK_TIMEOUT_MS });
  if (diag.status === 'safe') return { complexity: 'safe' };
  if (diag.status !== 'vulnerable') return null;
  const complexity = diag.complexity.type === 'exponential' ? 'exponential' : 'polynomial';
  return { complexity, attack: describeAttack(diag.attack) };
}

/**
 * Classifies a regex with recheck's `checkSync`, caching verdicts by (source, flags).
 * Returns null when recheck cannot decide (unsupported syntax, timeout, no backend);
 * never throws.
 *
 * @example screenRegexWithRecheck('^(a+)+$', '') // { complexity: 'exponential', attack: "'a' + 'a'.repeat(31) + '\\x00'" }
 */
export const screenRegexWithRecheck: RegexScreen = (source, flags) => screenCached(source, flags);

function screenCached(source: string, flags: string): Verdict {
  if (typeof source !== 'string' || typeof flags !== 'string') return null;
  const key = `${flags}/${source}`;
  if (verdictCache.has(key)) return verdictCache.get(key) ?? null;
  let verdict: Verdict;
  try {
    verdict = analyze(source, flags);
  } catch {
    verdict = null;
  }
  if (verdictCache.size >= MAX_CACHED_VERDICTS) verdictCache.clear();
  verdictCache.set(key, verdict);
  return verdict;
}

/** A screen wrapped with a total time budget, and what it skipped once the budget ran out. */
export interface BudgetedScreen {
  screen: RegexScreen;
  /** Patterns left unscreened because the budget was spent. */
  skipped(): number;
}

/**
 * Wraps {@link screenRegexWithRecheck} so that one spec load spends at most `budgetMs`
 * analysing (cached verdicts are free); later patterns are answered with null.
 */
export function createBudgetedScreen(budgetMs: number, now: () => number = () => performance.now()): BudgetedScreen {
  let spentMs = 0;
  let skipped = 0;
  const screen: RegexScreen = (source, flags) => {
    if (verdictCache.has(`${flags}/${source}`)) return screenCached(source, flags);
    if (spentMs >= budgetMs) {
      skipped++;
      return null;
    }
    const started = now();
    try {
      return screenCached(source, flags);
    } finally {
      spentMs += now() - started;
    }
  };
  return { screen, skipped: () => skipped };
}
