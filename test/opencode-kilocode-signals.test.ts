/**
 * The rate-limit and overload signals of the OpenCode and Kilo Code specs, replayed from the lab's
 * recordings: a 429 the CLI retries through fires `rate_limited`, a 503 "Overloaded" fires
 * `provider_overloaded`, and an answer that merely talks about rate limits ("rate limit", "429 Too
 * Many Requests", "overloaded") fires neither — the rules read only the CLI's own retry line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSpecRef } from '../src/catalog/builtin.js';
import { replaySession } from '../src/harness/replay-session.js';
import { parseAsciicast } from '../src/recording/index.js';
import { SignalRuleSet } from '../src/driver/signal-rules.js';

const specs = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'specs');

function load(id: string) {
  const r = loadSpecRef(path.join(specs, id, 'spec.json'));
  if (!r.ok) throw new Error(`specs/${id}/spec.json does not load: ${r.errors.join('; ')}`);
  return r.spec;
}

/** The signals a recording fires under its CLI's spec, in order. */
function signalsOf(id: string, name: string): Array<{ id: string; params: Record<string, string> }> {
  const file = path.join(specs, id, 'recordings', `${name}.cast`);
  const out: Array<{ id: string; params: Record<string, string> }> = [];
  const run = replaySession({
    cast: parseAsciicast(fs.readFileSync(file, 'utf8'), { source: file }),
    spec: load(id),
    onEvent: (ev) => { if (ev.kind === 'signal_detected') out.push({ id: ev.id, params: ev.params }); },
  });
  run.driver.shutdown();
  return out;
}

for (const id of ['opencode', 'kilocode']) {
  describe(`${id}: rate-limit and overload signals`, () => {
    it('rate-limit: the retry line fires rate_limited with the message and attempt, never provider_overloaded', () => {
      const hits = signalsOf(id, 'rate-limit');
      const rate = hits.filter((h) => h.id === 'rate_limited');
      expect(rate.length).toBeGreaterThanOrEqual(1);
      expect(rate[0]!.params.message).toBe('Too Many Requests');
      expect(rate[0]!.params.attempt).toMatch(/^\d+$/);
      expect(hits.some((h) => h.id === 'provider_overloaded')).toBe(false);
    });

    it('overloaded: the retry line fires provider_overloaded, never rate_limited', () => {
      const hits = signalsOf(id, 'overloaded');
      expect(hits.filter((h) => h.id === 'provider_overloaded').map((h) => h.params.message)).toContain('Provider is overloaded');
      expect(hits.some((h) => h.id === 'rate_limited')).toBe(false);
    });

    it('rate-limit-mention: an answer about rate limits fires neither signal', () => {
      const hits = signalsOf(id, 'rate-limit-mention');
      expect(hits.filter((h) => h.id === 'rate_limited' || h.id === 'provider_overloaded')).toEqual([]);
    });

    it('the rules on single lines: the retry suffix is what counts, not the words', () => {
      const rules = new SignalRuleSet(load(id).signal_rules);
      const fired = (line: string) => rules.evaluate([], [line], () => line, 0).map((h) => h.id);
      // A fresh rule set per line: a rule does not fire again within its cooldown.
      const fresh = (line: string) => new SignalRuleSet(load(id).signal_rules).evaluate([], [line], () => line, 0).map((h) => h.id);
      expect(fired('   Too Many Requests [retrying in 2s attempt #1]')).toEqual(['rate_limited']);
      expect(fresh('Rate limit exceeded for this key [retrying in 4s attempt #2]')).toEqual(['rate_limited']);
      expect(fresh('   Provider is overloaded [retrying in 2s attempt #1]')).toEqual(['provider_overloaded']);
      for (const prose of ['The API has a rate limit of 60 requests a minute.', 'Past that rate limit it answers 429 Too Many Requests,', 'The provider may also say it is overloaded.']) {
        expect(fresh(prose), prose).toEqual([]);
      }
    });
  });
}
