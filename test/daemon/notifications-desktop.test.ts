/**
 * DesktopNotifier with a real executable on a test PATH (test/daemon/notify-send-fixture.ts):
 * off and reported once when there is none, safe argv (no escapes, markup escaped, bounded,
 * after `--`), never blocking and bounded when notify-send hangs.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DesktopNotifier, MAX_BODY_CHARS, safeText, type DesktopReport } from '../../src/daemon/desktop-notifier.js';
import { makeTempDir, readNotifySendLog, recordingNotifySend, until } from './notify-send-fixture.js';

const cleanups: Array<() => void> = [];
afterEach(() => { for (const c of cleanups.splice(0).reverse()) c(); });

function tempDir(): string {
  const { dir, remove } = makeTempDir('specterm-desktop-');
  cleanups.push(remove);
  return dir;
}

function notifier(options: ConstructorParameters<typeof DesktopNotifier>[0]): { n: DesktopNotifier; reports: DesktopReport[] } {
  const reports: DesktopReport[] = [];
  const n = new DesktopNotifier({ ...options, onReport: (r) => reports.push(r) });
  cleanups.push(() => n.shutdown());
  return { n, reports };
}


const exited = { type: 'session.exited' as const, sessionId: 's1', at: 1, exitCode: 0, signal: null };

describe('DesktopNotifier', () => {
  it('is off, says so once, and does nothing when notify-send is not on PATH', () => {
    const { n, reports } = notifier({ env: { PATH: tempDir() } });
    expect(n.available).toBe(false);
    n.notify(exited);
    n.notify(exited);
    expect(reports).toEqual([{ type: 'unavailable', reason: expect.stringContaining('notify-send is not on PATH') }]);
    expect(n.stats()).toEqual({ running: 0, queued: 0, dropped: 0 });
  });

  it('passes a plain, escaped, bounded text after --', async () => {
    const { bin, log } = recordingNotifySend(tempDir());
    const { n, reports } = notifier({ env: { PATH: bin } });
    expect(reports).toEqual([{ type: 'available', path: path.join(bin, 'notify-send') }]);
    const message = `\x1b[31mred\x1b[0m <b>bold</b> & \x1b]0;title\x07 --help\nnext line ${'x'.repeat(500)}`;
    n.notify({ type: 'session.error', sessionId: 's1', at: 1, code: 'DRIVER_ERROR', message });
    const [argv] = await until(() => { const c = readNotifySendLog(log); return c.length === 1 && c; }, 'one call');
    expect(argv!.slice(0, 3)).toEqual(['--app-name=specterm', '--urgency=critical', '--']);
    expect(argv![3]).toBe('specterm: session error');
    const body = argv![4]!;
    expect(body.startsWith('s1: red &lt;b&gt;bold&lt;/b&gt; &amp; --help next line xxx')).toBe(true);
    expect(body).not.toMatch(/[\x00-\x1f]/);
    expect(body.endsWith('…')).toBe(true);
    expect(Array.from(body.replace(/&(amp|lt|gt);/g, '_')).length).toBeLessThanOrEqual(MAX_BODY_CHARS);
  });

  it('leaves an approval\'s body out: session and modal title only', async () => {
    const { bin, log } = recordingNotifySend(tempDir());
    const { n } = notifier({ env: { PATH: bin } });
    n.notify({ type: 'approval.needed', sessionId: 's1', at: 1, approval: { id: 'a', fingerprint: 'f', kind: 'approval', title: 'Bash command', body: 'curl -H "Authorization: Bearer sk-secret" …', buttons: [], firstSeenAt: 1 } });
    const [argv] = await until(() => { const c = readNotifySendLog(log); return c.length === 1 && c; }, 'one call');
    expect(argv!.slice(3)).toEqual(['specterm: approval needed', 's1: Bash command']);
  });

  it('never blocks and stays bounded when notify-send hangs: a queue with the oldest dropped, hung ones killed', async () => {
    const { bin, log } = recordingNotifySend(tempDir(), 'hang');
    const { n, reports } = notifier({ env: { PATH: bin }, maxConcurrent: 1, maxQueue: 2, timeoutMs: 400 });
    const t0 = performance.now();
    for (let i = 0; i < 5; i++) n.notify({ ...exited, exitCode: i });
    expect(performance.now() - t0).toBeLessThan(200);
    expect(n.stats()).toEqual({ running: 1, queued: 2, dropped: 2 });
    expect(reports.filter((r) => r.type === 'dropped')).toEqual([{ type: 'dropped', droppedTotal: 1 }, { type: 'dropped', droppedTotal: 2 }]);
    await until(() => n.stats().running === 0 && n.stats().queued === 0, 'all done');
    expect(reports.filter((r) => r.type === 'timed-out')).toHaveLength(3);
    // Shown: the first, then the two newest (2 and 3 were dropped while waiting).
    const calls = await until(() => { const c = readNotifySendLog(log); return c.length === 3 && c; }, 'three calls');
    expect(calls.map((argv) => argv.at(-1))).toEqual(['s1: exit code 0', 's1: exit code 3', 's1: exit code 4']);
  }, 20_000);

  it('safeText keeps a short plain text as it is', () => {
    expect(safeText('session s1 finished', 64)).toBe('session s1 finished');
  });
});
