/**
 * A `ManagedSession` over a real store, bound to a real driver in virtual time on a scripted
 * screen (test/helpers/driver-harness.ts): what the daemon derives from driver events (store
 * rows, `DaemonEvent`s, the session's modal view), without a PTY.
 */
import path from 'node:path';
import type { CliSpecV4 } from '../../src/core/spec/types.js';
import { ApprovalTracker } from '../../src/daemon/approval.js';
import { EventLog } from '../../src/daemon/event-log.js';
import { ManagedSession } from '../../src/daemon/managed-session.js';
import type { DaemonEvent } from '../../src/protocol/index.js';
import { openStore } from '../../src/store/index.js';
import { baseSpec, harness, type Harness } from '../helpers/driver-harness.js';
import { makeTempDir } from './notify-send-fixture.js';

const cleanups: Array<() => void> = [];

/** Closes every session `managed` made (afterEach). */
export function closeManaged(): void {
  for (const c of cleanups.splice(0).reverse()) c();
}

/** A driver in virtual time bound to a managed session; the session's events as they are appended. */
export function managed(spec: CliSpecV4 = baseSpec()): { h: Harness; events: DaemonEvent[]; session: ManagedSession } {
  const { dir, remove } = makeTempDir('specterm-managed-');
  cleanups.push(remove);
  const store = openStore(path.join(dir, 'specterm.db'));
  cleanups.push(() => store.close());
  const log = new EventLog({ journal: store.events });
  const events: DaemonEvent[] = [];
  log.subscribe((e) => { events.push(e); });
  const h = harness(spec);
  cleanups.push(() => h.driver.shutdown());
  const record = store.sessions.insert({ id: 's_managed', cwd: dir, createdAt: 0 });
  const session = new ManagedSession(record, spec, { store, events: log, tracker: new ApprovalTracker(), now: () => h.sched.now(), node: 'local', scheduler: h.sched });
  session.bind({ driver: h.driver, transport: h.tx as never }, null);
  return { h, events, session };
}

