/**
 * The Claude Code lab writes ground-truth labels beside each recording (issue 13, item 2): the spans
 * its live run was scored on, by status, in ms of the recording — so lab/accuracy-index.mjs scores the
 * committed recordings against the same truth. Checked on constructed marks, and on every committed
 * recording: labels present, inside the recording, and in step with it (a labelled approval holds
 * the replayed approval state; the time base is the recording's).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { labelIntervals, type LabMark } from '../lab/claude-code/lab.mjs';
import { loadSpecRef } from '../src/catalog/builtin.js';
import { replaySession } from '../src/harness/replay-session.js';
import { parseAsciicast } from '../src/recording/index.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'specs', 'claude-code', 'recordings');

describe('labelIntervals', () => {
  it('labels each expectation from its mark to the next expectation or the end, notes included in the span', () => {
    const t0 = 1_000_000;
    const marks: LabMark[] = [
      { atAbs: t0 + 5000, label: 'prompt sent', expect: null },
      { atAbs: t0 + 5200, label: 'stream_start', expect: { status: 'generating' } },
      { atAbs: t0 + 6000, label: 'tool_use_pending', expect: { status: 'approval', kind: 'approval' } },
      { atAbs: t0 + 6800, label: 'prompt on screen', expect: null },
      { atAbs: t0 + 9000, label: 'denied', expect: { status: 'idle' } },
      { atAbs: t0 + 12_000, label: 'end', expect: null },
    ];
    // Out of order on purpose: the lab marks server events after the fact.
    expect(labelIntervals([...marks].reverse(), t0)).toEqual([
      { from: 5200, to: 6000, status: 'generating' },
      { from: 6000, to: 9000, status: 'approval' },
      { from: 9000, to: 12_000, status: 'idle' },
    ]);
  });
});

describe('committed Claude Code recordings carry their labels', () => {
  const casts = fs.readdirSync(dir).filter((f) => f.endsWith('.cast')).sort();
  const spec = (() => {
    const r = loadSpecRef('claude-code');
    if (!r.ok) throw new Error(r.errors.join('\n'));
    return r.spec;
  })();

  it('every recording has labels inside its duration, from the lab', () => {
    expect(casts.length).toBeGreaterThanOrEqual(57);
    for (const f of casts) {
      const file = path.join(dir, f.replace(/\.cast$/, '.labels.json'));
      expect(fs.existsSync(file), f).toBe(true);
      const labels = JSON.parse(fs.readFileSync(file, 'utf8'));
      expect(labels.source, f).toMatch(/^lab\/claude-code Claude Code \d+\.\d+\.\d+/);
      const cast = parseAsciicast(fs.readFileSync(path.join(dir, f), 'utf8'), { source: f });
      const endMs = 1000 * (cast.events.at(-1)?.t ?? 0);
      expect(labels.intervals.length, f).toBeGreaterThan(0);
      for (const iv of labels.intervals) {
        expect(['generating', 'approval', 'idle'], f).toContain(iv.status);
        expect(iv.from_ms, f).toBeLessThan(iv.to_ms);
        expect(iv.from_ms, f).toBeGreaterThanOrEqual(0);
        expect(iv.to_ms, f).toBeLessThanOrEqual(endMs + 1000);
      }
    }
  });

  it('a labelled approval is in step with the recording: the replay shows it approval by the interval\'s end', () => {
    for (const f of casts.filter((n) => /^(approve|edit|write|webfetch|tall|plan|ask)/.test(n))) {
      const labels = JSON.parse(fs.readFileSync(path.join(dir, f.replace(/\.cast$/, '.labels.json')), 'utf8'));
      const run = replaySession({ cast: parseAsciicast(fs.readFileSync(path.join(dir, f), 'utf8'), { source: f }), spec });
      run.driver.shutdown();
      const approvals = labels.intervals.filter((iv: { status: string }) => iv.status === 'approval');
      expect(approvals.length, f).toBe(1);
      const [iv] = approvals;
      // The lab answered the prompt at the interval's end, so the replay was in approval just before it.
      const before = run.changes.filter((c) => c.t * 1000 <= iv.to_ms - 50).at(-1);
      expect(before?.status, `${f} at ${iv.to_ms - 50} ms`).toBe('approval');
    }
  });
});
