import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store/index.js';
import { EventLog } from './event-log.js';
import { LastNotices } from './last-notices.js';

const idle = { id: 'idle', label: 'Idle', title: null, status: 'idle' as const };
const finished = (session_id: string, at: number, duration_ms: number) => ({ type: 'turn.finished' as const, session_id, at, state: idle, duration_ms });

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('LastNotices', () => {
  it('keeps each session\'s newest notice, passes over other events and forgets a removed session', () => {
    const events = new EventLog();
    const notices = new LastNotices(events);
    events.append(finished('s_1', 100, 4_000));
    events.append({ type: 'session.state', session_id: 's_1', at: 110, state: idle, modal: null });
    events.append({ type: 'session.error', session_id: 's_2', at: 120, code: 'SPAWN_FAILED', message: 'no such binary' });
    expect(notices.of('s_1')).toEqual({ seq: 1, type: 'turn.finished', at: 100, text: 'turn finished in 4 s' });
    expect(notices.of('s_2')).toEqual({ seq: 3, type: 'session.error', at: 120, text: 'error: no such binary' });
    events.append({ type: 'approval.answered', session_id: 's_1', at: 130, approval_id: 'a_1', button: 'Yes', by: 'phone' });
    expect(notices.of('s_1')?.text).toBe('answered "Yes" (phone)');
    events.append({ type: 'session.removed', session_id: 's_2', at: 140 });
    expect(notices.of('s_2')).toBeUndefined();
    notices.dispose();
    events.append(finished('s_1', 150, 1_000));
    expect(notices.of('s_1')).toBeUndefined();
  });

  it('knows them again after a restart, from the events the database kept', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'notices-'));
    dirs.push(dir);
    const first = openStore(path.join(dir, 'specterm.db'));
    stores.push(first);
    const before = new EventLog({ journal: first.events });
    const at = Date.now(); // the store's retention drops events by age when it opens
    before.append(finished('s_1', at, 12_400));
    before.append({ type: 'session.state', session_id: 's_1', at: at + 10, state: idle, modal: null });
    first.close();
    stores.pop();
    const again = openStore(path.join(dir, 'specterm.db'));
    stores.push(again);
    const notices = new LastNotices(new EventLog({ journal: again.events }));
    expect(notices.of('s_1')).toEqual({ seq: 1, type: 'turn.finished', at, text: 'turn finished in 12 s' });
    notices.dispose();
  });
});
