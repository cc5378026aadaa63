/**
 * A transcript for a CLI that keeps no readable history (issue 26 item 3): the real daemon runs
 * the Demo Agent under a copy of its spec without `native_history`, and each turn's answer is read
 * off the screen — the rows the agent added, without its input box, footer, spinner or the echo
 * of the message — stored, searchable and printed by `send --wait idle`, marked as from the screen.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, runCli, startDaemonWithIdleSession, stopAll, type DaemonDirs } from './daemon-harness.js';

const WAIT_MS = 60_000;
let dirs: DaemonDirs;
let id: string;

beforeAll(async () => {
  const withoutHistory = (d: DaemonDirs) => {
    const spec = JSON.parse(fs.readFileSync(path.join(REPO, 'specs/demo-agent/spec.json'), 'utf8'));
    delete spec.native_history;
    spec.spawn_args = spec.spawn_args.map((a: string) => a.replace('{{specDir}}', path.join(REPO, 'specs/demo-agent')));
    const specFile = path.join(d.work, 'no-history.json');
    fs.writeFileSync(specFile, JSON.stringify(spec));
    return specFile;
  };
  // 20 rows: the long answer scrolls its start into the scrollback.
  ({ dirs, sessionId: id } = await startDaemonWithIdleSession(WAIT_MS, { spec: withoutHistory, name: 'plain', rows: 20 }));
}, 90_000);
afterAll(stopAll, 60_000);

describe('a transcript read off the screen', () => {
  it('send --wait idle prints the answer as the screen shows it, without the chrome or the echo', async () => {
    const sent = await runCli(dirs, ['send', 'plain', 'hello', '--wait', 'idle']);
    expect(sent.code, sent.err).toBe(0);
    const answer = sent.out.trim();
    expect(answer.replace(/\s+/g, ' ')).toContain("Hello! I'm Demo Agent, a scripted stand-in for a coding assistant.");
    expect(answer).not.toMatch(/╭|╰|❯|> hello/);
    const json = JSON.parse((await runCli(dirs, ['transcript', 'plain', '--json'])).out);
    expect(json.source).toEqual({ kind: 'screen' });
    expect(json.turns).toHaveLength(1);
    expect(json.turns[0]).toMatchObject({ index: 0, user: { text: 'hello' }, native_session_id: null });
    expect(json.turns[0].ended_at).toBeGreaterThanOrEqual(json.turns[0].started_at);
  }, 120_000);

  it('a second turn holds only its own answer, also when its start scrolled away from a 20-row screen', async () => {
    const sent = await runCli(dirs, ['send', 'plain', 'a long one please', '--wait', 'idle', '--json']);
    expect(sent.code, sent.err).toBe(0);
    const text = JSON.parse(sent.out).answer.text.replace(/\s+/g, ' ');
    expect(text).toMatch(/^(⏺ )?Here is a longer answer so you can watch the screen scroll\./);
    expect(text).toContain('That is the end of the long answer.');
    expect(text).not.toContain('Hello!');
    const json = JSON.parse((await runCli(dirs, ['transcript', 'plain', '--json'])).out);
    expect(json.turns.map((t: any) => t.user?.text)).toEqual(['hello', 'a long one please']);
    expect(json.warnings).toEqual([]);
    const hits = JSON.parse((await runCli(dirs, ['search', 'landmarks', '--json'])).out);
    expect(hits).toEqual([expect.objectContaining({ session_id: id, turn_index: 1, role: 'assistant' })]);
  }, 120_000);
});
