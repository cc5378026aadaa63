/**
 * A driver on a scripted transport and the VirtualScheduler, with a small Claude-like spec and
 * its screens: what the driver's unit tests share.
 */
import * as os from 'node:os';
import { expect } from 'vitest';
import type { CliSpecV4 } from '../../src/core/spec/types.js';
import { FsmDriver, type FsmDriverOptions } from '../../src/driver/fsm-driver.js';
import type { DashboardEvent } from '../../src/driver/events.js';
import { VirtualScheduler } from '../../src/driver/schedulers.js';
import { ScriptedTransport, paint } from './scripted-transport.js';

export const D = '─'.repeat(40);
export const IDLE = ['Agent v1', D, '❯ ', D, '  ? for shortcuts'];
export const busy = (s: number) => ['Agent v1', '● working on it', `⠋ Working… (${s}s · esc to interrupt)`, D, '❯ ', D];
export const APPROVAL = ['Agent v1', D, ' Bash command', '', '   rm -rf build', '', ' Do you want to proceed?', ' ❯ 1. Yes', '   2. Yes, and don\'t ask again', '   3. No', D, ' Esc to cancel'];
/** {@link APPROVAL} with the cursor marker on option `n` (1 is where it first shows). */
export const approvalWithCursorOn = (n: number): string[] => APPROVAL.map((l) => l.replace(' ❯ 1.', '   1.').replace(`   ${n}.`, ` ❯ ${n}.`));

export function baseSpec(over: Partial<CliSpecV4> = {}): CliSpecV4 {
  return {
    $schema: 'adhdev:cli/spec@4',
    id: 'test-agent',
    binary: '/bin/true',
    send_message: { submit_key: '\r', delay_ms_before_submit: 200 },
    sections: {
      prompt: { anchor: '^❯', anchor_last: true },
      modal: { anchor: 'Do you want to proceed', anchor_miss: 'empty' },
    },
    states: [
      { id: 'starting', label: 'Starting', initial: true },
      { id: 'idle', label: 'Idle' },
      { id: 'busy', label: 'Working' },
      {
        id: 'approval', label: 'Approval', modal: true,
        extract: {
          title: { regex: 'Do you want to (.+)\\?' },
          buttons: { pattern: '^\\s*(?:[❯›>]\\s*)?(\\d+)\\.\\s*(.+?)\\s*$', flags: 'gm', key_for_index: '{index}' },
        },
      },
    ],
    transitions: [
      { from: ['starting', 'idle', 'busy'], to: 'approval', priority: 100, when: { matches: 'Do you want to proceed\\?' } },
      { from: 'starting', to: 'idle', when: { all: [{ matches: '(?:^|\\n)❯', flags: '' }, { elapsed_ms: 500 }] } },
      { from: 'idle', to: 'busy', when: { matches: 'esc to interrupt' } },
      { from: 'busy', to: 'idle', min_hold_ms: 300, when: { all: [{ not: { matches: 'esc to interrupt' } }, { matches: '(?:^|\\n)❯' }, { stable_ms: 500 }] } },
      { from: 'approval', to: 'busy', when: { all: [{ not: { matches: 'Do you want to proceed' } }, { matches: 'esc to interrupt' }] } },
      { from: 'approval', to: 'idle', when: { all: [{ not: { matches: 'Do you want to proceed' } }, { matches: '(?:^|\\n)❯' }, { stable_ms: 300 }] } },
    ],
    control_bar: [
      { id: 'stop', label: 'Stop', visible_when_state: ['busy'], action: { type: 'send_keys', keys: '\x03' } },
      { id: 'model', label: 'Model', action: { type: 'open_picker', trigger_keys: '/model\r', wait_for: { regex: 'Select model' }, extract_choices: { pattern: '(\\d+)\\. (.+)' } } },
      { id: 'attach', label: 'Attach', action: { type: 'attach_image', keys_template: '@{path} ' } },
    ],
    ...over,
  } as CliSpecV4;
}

export interface Harness {
  sched: VirtualScheduler;
  tx: ScriptedTransport;
  driver: FsmDriver;
  events: DashboardEvent[];
  states: () => string[];
  at: (ms: number) => void;
}

export function harness(spec: CliSpecV4 = baseSpec(), opts: Partial<FsmDriverOptions> = {}): Harness {
  const sched = new VirtualScheduler(0);
  const tx = new ScriptedTransport(sched);
  const driver = new FsmDriver({
    spec, workingDir: os.tmpdir(), transport: tx, scheduler: sched, cols: 60, rows: 16,
    spawnPlan: { file: '/bin/true', args: [], cwd: os.tmpdir(), env: {}, cols: 60, rows: 16, resolvedBinary: '/bin/true', viaShell: false, argvForDisplay: ['true'] },
    applyTrust: false,
    ...opts,
  });
  const events: DashboardEvent[] = [];
  driver.subscribe((e) => events.push(e));
  return {
    sched, tx, driver, events,
    states: () => events.flatMap((e) => (e.kind === 'state_changed' ? [e.state.id] : [])),
    at: (ms) => sched.advanceTo(ms),
  };
}

/** Brings a harness to idle at t=600. */
export function toIdle(h: Harness): void {
  h.driver.start();
  h.tx.emit(paint(IDLE, { row: 2, col: 2 }));
  h.at(600);
  expect(h.driver.getCurrentView()?.state.id).toBe('idle');
}
