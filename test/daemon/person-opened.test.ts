/**
 * The rule for a modal the person opened (issue 27 item 8), in virtual time: a `ManagedSession`
 * over a real store and a real driver on a scripted screen. A picker first seen within
 * `PERSON_OPENED_WINDOW_MS` of the person's own input, with no agent turn in between, is
 * `opened_by: "person"` and raises no `approval.needed`; later than that, after a spinner, or
 * with no input at all it is the agent's; a consent prompt is always the agent's. A muted
 * session's notification events carry `muted: true`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PERSON_OPENED_WINDOW_MS } from '../../src/daemon/managed-session.js';
import type { DaemonEvent } from '../../src/protocol/index.js';
import { APPROVAL, baseSpec, busy, D, IDLE, toIdle } from '../helpers/driver-harness.js';
import { paint } from '../helpers/scripted-transport.js';
import { closeManaged, managed } from './managed-harness.js';

afterEach(closeManaged);

const PICKER = ['Agent v1', D, ' Select model', ' ❯ 1. fast', '   2. slow', D];

function pickerSpec() {
  const spec = baseSpec();
  spec.sections!['picker'] = { anchor: 'Select model', anchor_miss: 'empty' };
  spec.states.push({
    id: 'picker', label: 'Model', modal: true, modal_kind: 'picker',
    extract: { buttons: { pattern: '^\\s*(?:[❯›>]\\s*)?(\\d+)\\.\\s*(.+?)\\s*$', flags: 'gm', key_for_index: '{index}' } },
  });
  spec.transitions.unshift(
    { from: ['starting', 'idle', 'busy'], to: 'picker', priority: 100, when: { section: 'picker', matches: 'Select model' } },
    { from: 'picker', to: 'idle', when: { all: [{ not: { section: 'picker', matches: 'Select model' } }, { matches: '(?:^|\\n)❯', flags: '' }] } },
  );
  return spec;
}

const needed = (events: DaemonEvent[]) => events.filter((e) => e.type === 'approval.needed');

describe('a modal the person opened', () => {
  it('is the person\'s right after their input: shown with opened_by person, no approval.needed', () => {
    const { h, events, session } = managed(pickerSpec());
    toIdle(h);
    session.notePersonInput();
    h.tx.emit(paint(PICKER));
    h.at(h.sched.now() + 500);
    expect(session.modalView()).toMatchObject({ kind: 'picker', opened_by: 'person' });
    expect(session.approval?.openedBy).toBe('person');
    expect(needed(events)).toEqual([]);
  });

  it('is the agent\'s when it comes later than the window, after a spinner, or with no input at all', () => {
    const late = managed(pickerSpec());
    toIdle(late.h);
    late.session.notePersonInput();
    late.h.at(late.h.sched.now() + PERSON_OPENED_WINDOW_MS + 100);
    late.h.tx.emit(paint(PICKER));
    late.h.at(late.h.sched.now() + 500);
    expect(late.session.modalView()?.opened_by).toBe('agent');
    expect(needed(late.events)).toHaveLength(1);

    const afterTurn = managed(pickerSpec());
    toIdle(afterTurn.h);
    afterTurn.session.notePersonInput();
    afterTurn.h.tx.emit(paint(busy(1)));
    afterTurn.h.at(afterTurn.h.sched.now() + 700);
    expect(afterTurn.h.driver.getCurrentView()?.state.status).toBe('generating');
    afterTurn.h.tx.emit(paint(PICKER));
    afterTurn.h.at(afterTurn.h.sched.now() + 500);
    expect(afterTurn.session.modalView()?.opened_by).toBe('agent');
    expect(needed(afterTurn.events)).toHaveLength(1);

    const noInput = managed(pickerSpec());
    toIdle(noInput.h);
    noInput.h.tx.emit(paint(PICKER));
    noInput.h.at(noInput.h.sched.now() + 500);
    expect(noInput.session.modalView()?.opened_by).toBe('agent');
    expect(needed(noInput.events)).toHaveLength(1);
  });

  it('never hides a consent prompt, even right after the person\'s input', () => {
    const { h, events, session } = managed();
    toIdle(h);
    session.notePersonInput();
    h.tx.emit(paint(APPROVAL));
    h.at(h.sched.now() + 500);
    expect(session.modalView()).toMatchObject({ kind: 'approval', opened_by: 'agent' });
    expect(needed(events)).toHaveLength(1);
  });
});

describe('a muted session', () => {
  it('tags its notification events muted, and only while muted', () => {
    const { h, events, session } = managed();
    toIdle(h);
    session.setMuted(true);
    h.tx.emit(paint(APPROVAL));
    h.at(h.sched.now() + 500);
    h.tx.emit(paint(IDLE));
    h.at(h.sched.now() + 1000);
    session.setMuted(false);
    h.tx.emit(paint(APPROVAL));
    h.at(h.sched.now() + 500);
    const notes = events.filter((e) => e.type === 'approval.needed' || e.type === 'turn.finished');
    expect(notes.map((e) => [e.type, 'muted' in e ? e.muted : undefined])).toEqual([
      ['approval.needed', true], ['turn.finished', true], ['approval.needed', undefined],
    ]);
  });
});
