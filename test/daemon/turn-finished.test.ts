/**
 * When a session's turn ends (`turn.finished`): a real driver in virtual time over a scripted
 * screen, a `ManagedSession` over a real store. A loaded machine, or a fast agent, can show an
 * approval and finish after it without the driver ever sampling a spinner: the turn still began
 * at the consent prompt and must still be reported. A picker opened and closed from idle is not a
 * turn, nor is a startup gate.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { desktopMessage } from '../../src/daemon/desktop-notifier.js';
import type { DaemonEvent } from '../../src/protocol/index.js';
import { notificationMessageOf } from '../../src/protocol/push.js';
import { BACKGROUND_WAIT_MS } from '../../src/daemon/turn-completion.js';
import { APPROVAL, baseSpec, busy, D, IDLE, toIdle, type Harness } from '../helpers/driver-harness.js';
import { paint } from '../helpers/scripted-transport.js';
import { closeManaged, managed } from './managed-harness.js';

afterEach(closeManaged);

const PICKER = ['Agent v1', D, ' Select model', ' ❯ 1. fast', '   2. slow', D];

/** The states the driver went through (a modal's repaint re-emits its state: counted once). */
const visited = (h: Harness) => h.states().filter((s, i, all) => s !== all[i - 1]);

const finished = (events: DaemonEvent[]) => events.filter((e): e is Extract<DaemonEvent, { type: 'turn.finished' }> => e.type === 'turn.finished');

describe('turn.finished', () => {
  it('reports a turn whose only non-idle moment was a consent prompt, timed from the prompt', () => {
    const { h, events } = managed();
    toIdle(h);
    h.tx.emit(paint(APPROVAL));
    h.at(1000);
    expect(h.driver.getCurrentView()?.state.id).toBe('approval');
    h.tx.emit(paint(IDLE));
    h.at(2000);
    expect(visited(h)).toEqual(['starting', 'idle', 'approval', 'idle']);
    const turns = finished(events);
    expect(turns).toHaveLength(1);
    expect(turns[0]!.state.id).toBe('idle');
    expect(turns[0]!.duration_ms).toBeGreaterThan(600); // from the prompt (≈604) to idle (≈1334)
    expect(turns[0]!.duration_ms).toBeLessThan(1000);
  });

  it('reports a turn with a spinner once, timed from its start', () => {
    const { h, events } = managed();
    toIdle(h);
    h.tx.emit(paint(busy(1)));
    h.at(700);
    h.tx.emit(paint(APPROVAL));
    h.at(900);
    h.tx.emit(paint(busy(2)));
    h.at(1000);
    h.tx.emit(paint(IDLE));
    h.at(2000);
    expect(visited(h)).toEqual(['starting', 'idle', 'busy', 'approval', 'busy', 'idle']);
    expect(finished(events).map((e) => e.duration_ms)).toEqual([expect.any(Number)]);
    expect(finished(events)[0]!.duration_ms).toBeGreaterThan(900);
  });

  it('does not report a picker opened and closed from idle, nor a startup gate', () => {
    const spec = baseSpec();
    spec.sections!['picker'] = { anchor: 'Select model', anchor_miss: 'empty' };
    spec.states.push({ id: 'picker', label: 'Model', modal: true, modal_kind: 'picker' });
    spec.transitions.unshift(
      { from: ['starting', 'idle'], to: 'picker', priority: 100, when: { section: 'picker', matches: 'Select model' } },
      { from: 'picker', to: 'idle', when: { all: [{ not: { section: 'picker', matches: 'Select model' } }, { matches: '(?:^|\\n)❯', flags: '' }] } },
    );
    const { h, events } = managed(spec);
    h.driver.start();
    h.tx.emit(paint(APPROVAL)); // a consent-looking gate before the agent was ever ready
    h.at(300);
    expect(h.driver.getCurrentView()?.state.id).toBe('approval');
    h.tx.emit(paint(IDLE));
    h.at(1200);
    expect(h.driver.getCurrentView()?.state.id).toBe('idle');
    h.tx.emit(paint(PICKER));
    h.at(1500);
    expect(h.driver.getCurrentView()?.state.id).toBe('picker');
    h.tx.emit(paint(IDLE));
    h.at(2500);
    expect(visited(h)).toEqual(['starting', 'approval', 'idle', 'picker', 'idle']);
    expect(finished(events)).toEqual([]);
  });
});

describe('turn.finished with background work (spec background_work)', () => {
  const spec = () => baseSpec({ background_work: [{ id: 'job', pattern: '(\\d+) jobs? running', count_group: 1, noun: 'background job' }] });
  const IDLE_WITH_JOB = ['Agent v1', D, '❯ ', D, '  ? for shortcuts · 1 job running'];
  /** Idle, a turn, and its end at 700 with a job of the agent's own still running. */
  const turnEndingWithJob = (h: Harness) => {
    toIdle(h);
    h.tx.emit(paint(busy(1)));
    h.at(700);
    h.tx.emit(paint(IDLE_WITH_JOB));
  };
  const states = (events: DaemonEvent[]) => events.flatMap((e) => (e.type === 'session.state' ? [[e.state.id, e.state.background?.what ?? null]] : []));

  it('waits while the idle agent still runs work of its own, and fires once the work is gone', () => {
    const { h, events } = managed(spec());
    turnEndingWithJob(h);
    h.at(3000);
    expect(h.driver.getCurrentView()?.state).toMatchObject({ id: 'idle', background: { count: 1, what: '1 background job' } });
    expect(finished(events)).toEqual([]);
    h.tx.emit(paint(IDLE));
    h.at(4000);
    const turns = finished(events);
    expect(turns).toHaveLength(1);
    expect(turns[0]!.state.background).toBeUndefined();
    expect(turns[0]!.at).toBeGreaterThanOrEqual(3000);
    expect(turns[0]!.duration_ms).toBeGreaterThan(2300); // from the spinner (≈620) to the work's end (≈3000)
    // Subscribers saw the idle state with its work, then without it.
    expect(states(events).slice(-2)).toEqual([['idle', '1 background job'], ['idle', null]]);
  });

  it('counts a turn the agent starts again while it waits as the same: one notification at the end', () => {
    const { h, events } = managed(spec());
    turnEndingWithJob(h);
    h.at(2000);
    h.tx.emit(paint(busy(2)));
    h.at(2500);
    h.tx.emit(paint(IDLE));
    h.at(4000);
    expect(visited(h)).toEqual(['starting', 'idle', 'busy', 'idle', 'busy', 'idle']);
    expect(finished(events)).toHaveLength(1);
    expect(finished(events)[0]!.duration_ms).toBeGreaterThan(2000); // from the first spinner (≈620) to the last idle (≈3050)
  });

  it('fires after BACKGROUND_WAIT_MS with the work still running, saying so, and not again when it ends', () => {
    const { h, events } = managed(spec());
    turnEndingWithJob(h);
    h.at(1500);
    const idleAt = events.find((e) => e.type === 'session.state' && e.state.id === 'idle' && e.state.background)!.at; // the bound runs from here
    h.at(idleAt + BACKGROUND_WAIT_MS - 200);
    expect(finished(events)).toEqual([]);
    h.at(idleAt + BACKGROUND_WAIT_MS + 200);
    const turns = finished(events);
    expect(turns).toHaveLength(1);
    expect(turns[0]!.state.background).toMatchObject({ count: 1, what: '1 background job' });
    // What a person reads says the work goes on.
    expect(notificationMessageOf(turns[0]!, 'build')?.body).toMatch(/; now Idle, 1 background job still running$/);
    expect(desktopMessage({ type: 'turn.finished', sessionId: 's_managed', at: turns[0]!.at, durationMs: turns[0]!.duration_ms, state: turns[0]!.state }).body)
      .toMatch(/^s_managed: Idle after \d+ s, 1 background job still running$/);
    h.tx.emit(paint(IDLE));
    h.at(idleAt + BACKGROUND_WAIT_MS + 2000);
    expect(finished(events)).toHaveLength(1);
  });
});
