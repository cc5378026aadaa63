/**
 * When a session's turn ends (`turn.finished`): a real driver in virtual time over a scripted
 * screen, a `ManagedSession` over a real store. A loaded machine, or a fast agent, can show an
 * approval and finish after it without the driver ever sampling a spinner: the turn still began
 * at the consent prompt and must still be reported. A picker opened and closed from idle is not a
 * turn, nor is a startup gate.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliSpecV4 } from '../../src/core/spec/types.js';
import { ApprovalTracker } from '../../src/daemon/approval.js';
import { EventLog } from '../../src/daemon/event-log.js';
import { ManagedSession } from '../../src/daemon/managed-session.js';
import type { DaemonEvent } from '../../src/protocol/index.js';
import { openStore } from '../../src/store/index.js';
import { APPROVAL, baseSpec, busy, D, harness, IDLE, toIdle, type Harness } from '../helpers/driver-harness.js';
import { paint } from '../helpers/scripted-transport.js';
import { makeTempDir } from './notify-send-fixture.js';

const cleanups: Array<() => void> = [];
afterEach(() => { for (const c of cleanups.splice(0).reverse()) c(); });

const PICKER = ['Agent v1', D, ' Select model', ' ❯ 1. fast', '   2. slow', D];

/** A driver in virtual time bound to a managed session; the session's events as they are appended. */
function managed(spec: CliSpecV4 = baseSpec()): { h: Harness; events: DaemonEvent[] } {
  const { dir, remove } = makeTempDir('specterm-turn-');
  cleanups.push(remove);
  const store = openStore(path.join(dir, 'specterm.db'));
  cleanups.push(() => store.close());
  const log = new EventLog({ journal: store.events });
  const events: DaemonEvent[] = [];
  log.subscribe((e) => { events.push(e); });
  const h = harness(spec);
  cleanups.push(() => h.driver.shutdown());
  const record = store.sessions.insert({ id: 's_turn', cwd: dir, createdAt: 0 });
  const session = new ManagedSession(record, spec, { store, events: log, tracker: new ApprovalTracker(), now: () => h.sched.now() });
  session.bind({ driver: h.driver, transport: h.tx as never }, null);
  return { h, events };
}

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
