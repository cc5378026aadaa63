/**
 * Differential test of the driver's re-decided evaluations (FrameReads): every recording, replayed
 * once with frames re-decided from the last full evaluation's reads and once with every frame
 * evaluated in full, must produce the same events at the same virtual times. The large benchmark
 * recording (spinner, streaming, tool output, approvals) is included, generated small.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverSpecTests } from '../src/harness/spec-test.js';
import { replaySession } from '../src/harness/replay-session.js';
import { parseAsciicast } from '../src/recording/index.js';
import type { CliSpecV4 } from '../src/core/spec/types.js';

const root = path.resolve(__dirname, '..');

interface Run {
  events: string[];
  evalCount: number;
  reusedEvalCount: number;
}

function replay(castPath: string, spec: CliSpecV4, fullEvaluations: boolean): Run {
  const cast = parseAsciicast(fs.readFileSync(castPath, 'utf8'), { source: castPath });
  const events: string[] = [];
  const r = replaySession({
    cast,
    spec,
    fullEvaluations,
    onEvent: (ev, atMs) => { if (ev.kind !== 'pty_data') events.push(JSON.stringify([atMs, ev])); },
  });
  const debug = r.driver.getFsmDebug();
  r.driver.shutdown();
  return { events, evalCount: debug.evalCount, reusedEvalCount: debug.reusedEvalCount };
}

function readSpec(specPath: string): CliSpecV4 {
  return JSON.parse(fs.readFileSync(specPath, 'utf8')) as CliSpecV4;
}

/** Writes an asciicast (header line, then event lines) into the test's temp dir; returns its path. */
function writeCast(name: string, lines: string[]): string {
  const castPath = path.join(tmp, name);
  fs.writeFileSync(castPath, lines.join('\n') + '\n');
  return castPath;
}

/** Replays both ways and checks they agree; returns both runs. */
function replayBothWays(castPath: string, spec: CliSpecV4): { full: Run; reused: Run } {
  const full = replay(castPath, spec, true);
  const reused = replay(castPath, spec, false);
  expect(reused.events).toEqual(full.events);
  return { full, reused };
}

/** A run's `state_changed` events with their virtual times (ms). */
function stateChanges(run: Run): Array<[number, { state: { id: string }; modal: { buttons: Array<{ label: string }> } | null }]> {
  return run.events.map((e) => JSON.parse(e)).filter(([, ev]) => ev.kind === 'state_changed');
}

/** Virtual time (ms) of the first `state_changed` into `stateId`, or undefined. */
function enteredAt(run: Run, stateId: string): number | undefined {
  return stateChanges(run).find(([, ev]) => ev.state.id === stateId)?.[0];
}

/** A small spec for one scenario: `id` names it (name and binary too); `body` gives its sections, states and transitions. */
function scenarioSpec(id: string, body: Record<string, unknown>): CliSpecV4 {
  return { $schema: 'adhdev:cli/spec@4', id, name: id, binary: id, ...body } as unknown as CliSpecV4;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-reuse-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('re-decided evaluations', () => {
  const { cases } = discoverSpecTests();

  for (const c of cases) {
    it(`${c.name}: the same events as evaluating every frame in full`, () => {
      const { full, reused } = replayBothWays(c.castPath, readSpec(c.specPath));
      expect(full.reusedEvalCount).toBe(0);
      expect(reused.evalCount).toBe(full.evalCount);
    });
  }

  it('a re-decided frame still counts as a change for stable_ms', () => {
    // A clock ticks on a row no regex reads, so every tick is re-decided; the guard's stable_ms
    // must still restart at each tick, and fire only once the ticking stops.
    const lines = ['{"version":2,"width":40,"height":10}', '[0.1,"o","READY\\r\\n"]'];
    for (let i = 0; i < 15; i++) lines.push(`[${(0.3 + i * 0.2).toFixed(1)},"o","\\rtick ${i}"]`);
    const castPath = writeCast('ticks.cast', lines);
    const spec = scenarioSpec('ticks', {
      states: [{ id: 'waiting', initial: true }, { id: 'settled' }],
      transitions: [{ from: 'waiting', to: 'settled', when: { all: [{ matches: 'READY' }, { stable_ms: 500 }] } }],
    });
    const { reused } = replayBothWays(castPath, spec);
    expect(reused.reusedEvalCount).toBeGreaterThan(5);
    // The last tick is at 3.1 s.
    expect(enteredAt(reused, 'settled')).toBeGreaterThanOrEqual(3100 + 500);
  });

  it('a leaf whose own haystack changed is evaluated afresh in a re-decision', () => {
    // Only the text of the `box` section changes ("go later" → "go now"): anchors and literal
    // pre-checks answer alike, so the frame is re-decided — the multi-line leaf must read it again.
    const castPath = writeCast('box.cast', [
      '{"version":2,"width":40,"height":10}',
      '[0.1,"o","BOX\\r\\ngo later"]',
      '[0.2,"o","\\r\\u001b[Kgo now"]',
    ]);
    const spec = scenarioSpec('box', {
      sections: { box: { anchor: '^BOX', lines: 3 } },
      states: [{ id: 'waiting', initial: true }, { id: 'going' }],
      transitions: [{ from: 'waiting', to: 'going', when: { all: [{ section: 'box', matches: 'go\\s+now' }, { stable_ms: 300 }] } }],
    });
    const { reused } = replayBothWays(castPath, spec);
    expect(reused.reusedEvalCount).toBeGreaterThan(0);
    expect(enteredAt(reused, 'going')).toBeDefined();
  });

  it('a scrolled frame whose rows answer alike at every index is re-decided', () => {
    // Log lines scroll the screen (and the guard frame, filled with history first) on every chunk;
    // the only guard reads every row for FINISHED, which no scrolled row holds, so each scroll is
    // re-decided until it shows.
    const history = Array.from({ length: 240 }, (_, i) => `old line ${i}\\r\\n`).join('');
    const lines = ['{"version":2,"width":40,"height":6}', `[0.1,"o","${history}"]`];
    for (let i = 0; i < 20; i++) lines.push(`[${(0.3 + i * 0.2).toFixed(1)},"o","log line ${i}\\r\\n"]`);
    lines.push('[4.5,"o","FINISHED"]');
    const castPath = writeCast('scroll.cast', lines);
    const spec = scenarioSpec('scroll', {
      states: [{ id: 'waiting', initial: true }, { id: 'done' }],
      transitions: [{ from: 'waiting', to: 'done', when: { matches: 'FINISHED' } }],
    });
    const { reused } = replayBothWays(castPath, spec);
    expect(reused.reusedEvalCount).toBeGreaterThan(15);
    expect(enteredAt(reused, 'done')).toBeGreaterThanOrEqual(4500);
  });

  it('a modal state re-decided from its reads still extracts its buttons from the new frame', () => {
    // The approval refreshes are re-decided; the second button's label then changes on a row no
    // guard reads, but the extraction read it: the modal view must show the new label.
    const castPath = writeCast('modal.cast', [
      '{"version":2,"width":40,"height":10}',
      '[0.1,"o","Approve?\\r\\n1. Yes\\r\\n2. No"]',
      '[0.6,"o","\\r\\u001b[K2. Never"]',
    ]);
    const spec = scenarioSpec('modal', {
      sections: { modal: { anchor: '^Approve', anchor_last: true } },
      states: [
        { id: 'idle', initial: true },
        { id: 'approval', modal: true, modal_kind: 'approval', extract: { buttons: { section: 'modal', pattern: '^\\s*(\\d+)\\.\\s+(.+)$', flags: 'm' } } },
      ],
      transitions: [{ from: 'idle', to: 'approval', when: { matches: '^Approve' } }],
    });
    const { reused } = replayBothWays(castPath, spec);
    expect(reused.reusedEvalCount).toBeGreaterThan(0);
    const labels = stateChanges(reused)
      .filter(([, ev]) => ev.modal)
      .map(([, ev]) => ev.modal!.buttons.map((b) => b.label).join('/'));
    expect(labels).toEqual(['Yes/No', 'Yes/Never']);
  });

  it('the benchmark session: the same events, and most spinner frames re-decided', () => {
    const castPath = path.join(tmp, 'bench.cast');
    execFileSync(process.execPath, [path.join(root, 'bench/make-recording.mjs'), castPath, '--mb', '2', '--seed', '7'], { stdio: 'ignore' });
    const spec = readSpec(path.join(root, 'test/fixtures/specs/valid/claude-like.json'));
    const { reused } = replayBothWays(castPath, spec);
    expect(stateChanges(reused).length).toBeGreaterThan(10);
    // The mechanism must actually be exercised, or this test proves nothing.
    expect(reused.reusedEvalCount).toBeGreaterThan(reused.evalCount / 4);
  });
});
