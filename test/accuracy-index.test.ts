/**
 * Tests of the figures lab/accuracy-index.mjs computes from the committed recordings: labelled time
 * and latency against a recording's ground-truth labels, flaps, and modal buttons/kinds against its
 * expect file. Plain values; test/spec-recordings.test.ts replays the recordings themselves.
 */
import { describe, expect, it } from 'vitest';
import { countFlaps, recordedVersion, scoreLabels, scoreModals, type ReplayChange } from '../lab/accuracy-index.mjs';

const ch = (t: number, status: string, modal: ReplayChange['modal'] = null, state = status): ReplayChange => ({ t, state, status, modal });

describe('accuracy-index figures', () => {
  it('scores labelled time and per-status latency against the labels, a never-reached status as missed', () => {
    const changes = [ch(0, 'idle'), ch(2.1, 'generating'), ch(4.5, 'idle')];
    const r = scoreLabels(changes, [
      { from_ms: 1000, to_ms: 2000, status: 'idle' },
      { from_ms: 2000, to_ms: 4000, status: 'generating' },
      { from_ms: 5000, to_ms: 6000, status: 'approval' },
    ]);
    expect(r.labelled).toBe(4000);
    // idle 1000 right; generating 2100..4000 → 1900 right (sampled every 20 ms); approval none.
    expect(r.right).toBe(1000 + 1900);
    expect(r.latency).toEqual([{ status: 'idle', ms: 0 }, { status: 'generating', ms: 100 }, { status: 'approval', ms: null }]);
  });

  it('counts a short A→B→A status blip as a flap, not a long one nor a state change within one status', () => {
    expect(countFlaps([ch(0, 'idle'), ch(1, 'generating'), ch(1.2, 'idle')])).toBe(1);
    expect(countFlaps([ch(0, 'idle'), ch(1, 'generating'), ch(2, 'idle')])).toBe(0);
    expect(countFlaps([ch(0, 'approval', null, 'approval'), ch(0.1, 'approval', null, 'picker'), ch(0.2, 'idle')])).toBe(0);
  });

  it('reads the CLI version from the suffix the lab writes, not a version the scenario names before it', () => {
    expect(recordedVersion("a cached update check (latest_version 0.999.0) → 'Update available · 0.171.0 → 0.999.0' → Skip (Codex CLI 0.171.0, lab/codex)")).toBe('0.171.0');
    expect(recordedVersion('Bash approval, yes (Claude Code 2.1.332, lab/claude-code)')).toBe('2.1.332');
    expect(recordedVersion('hand-made, no version')).toBeNull();
    expect(recordedVersion(undefined)).toBeNull();
  });

  it('counts expected modals whose buttons and kind the replay showed exactly', () => {
    const modal = { title: 'Run it?', kind: 'approval', buttons: [{ index: 1, label: 'Yes' }, { index: 2, label: 'No' }] };
    const exp = { sequence: [{ state: 'approval', modal: { title: 'Run it?', kind: 'approval', buttons: ['Yes', 'No'] } }, { state: 'idle', modal: null }] };
    expect(scoreModals(exp, [ch(0, 'idle'), ch(1, 'approval', modal)])).toEqual({ buttons: [1, 1], kinds: [1, 1] });
    const wrong = { ...modal, kind: 'picker', buttons: [{ index: 1, label: 'Yes' }] };
    expect(scoreModals(exp, [ch(0, 'idle'), ch(1, 'approval', wrong)])).toEqual({ buttons: [0, 1], kinds: [0, 1] });
  });
});
