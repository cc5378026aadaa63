/**
 * The daemon's event loop never waits on ReDoS screening (issue 27 item 1): a session made from
 * a spec of the user's with regexes no verdict is known for is screened in recheck's agent
 * process, and meanwhile the daemon answers everyone else. (Before, the load screened inline:
 * every other request waited until the whole spec was screened.)
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, makeDirs, startDaemon, stopAll, type DaemonDirs, type RunningDaemon } from './daemon-harness.js';

let dirs: DaemonDirs;
let daemon: RunningDaemon;

beforeAll(async () => {
  dirs = makeDirs();
  // The screen's own time bound, not this machine's load, must not decide the outcome: beside
  // CPU burners one of these patterns can take longer than the default 10 s to decide.
  dirs.env.SPECTERM_REDOS_TIMEOUT_MS = '100000';
  daemon = await startDaemon(dirs);
}, 90_000);
afterAll(stopAll, 60_000);

/** Guards recheck takes about a second each to decide (shapes from the built-in specs), made new by a nonce. */
function slowGuards(nonce: string): Array<{ matches: string }> {
  return [
    `(?:^|\\n)[ \\t]+❯ (?!\\d+\\.)\\S[^\\n]*\\n[ \\t]{4,}(?![↑↓][ \\t])\\S[^\\n]*\\n${nonce}a`,
    `(?:^|\\n)[ \\t]*(?:←[^\\n☐]*☐[ \\t]+|←[^\\n]*\\n(?:[ \\t]*\\n)*[ \\t]*|(?:☐[ \\t]+)?)([^\\s─][^\\n]*?)${nonce}b`,
    `^ ?│ +(?:● +)?(\\d+)\\.  +([^\\s│](?:[^\\s│]| (?! ))*)[^\\n]*│${nonce}c$`,
  ].map((matches) => ({ matches }));
}

describe('a spec of your own, new to the ReDoS screen', () => {
  it('is screened while the daemon answers other requests, then runs with its verdicts', async () => {
    const spec = JSON.parse(fs.readFileSync(path.join(REPO, 'specs/demo-agent/spec.json'), 'utf8')) as { id: string; transitions: unknown[] };
    const nonce = `N${randomBytes(4).toString('hex')}`;
    spec.transitions.push(...slowGuards(nonce).map((when) => ({ from: 'idle', to: 'busy', when })));
    const file = path.join(dirs.work, 'my-spec.json');
    fs.writeFileSync(file, JSON.stringify(spec));

    const order: string[] = [];
    const creating = daemon.client.call('createSession', { body: { spec: file, cwd: dirs.work, name: 'mine' } }).then((s) => { order.push('created'); return s; });
    // Sent while the screening runs: answered at once, not after it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await daemon.client.call('listSessions').then(() => order.push('listed'));
    const created = await creating;
    expect(order).toEqual(['listed', 'created']);

    // The verdicts were kept: the cache of the daemon's user now holds all three patterns.
    const cache = fs.readFileSync(path.join(dirs.env.XDG_CACHE_HOME ?? path.join(dirs.home, '.cache'), 'specterm/redos-verdicts.json'), 'utf8');
    for (const suffix of ['a', 'b', 'c']) expect(cache).toContain(`${nonce}${suffix}`);
    await daemon.client.call('removeSession', { params: { id: created.id } });
  }, 120_000);
});
