/**
 * The `list` permission (OpenCode 1.18.33, Kilo 7.7.7): the config still accepts `permission.list`
 * and the TUI still draws a `list` request (`→ List <path>`), but neither version has a `list` tool
 * any more, and nothing in either bundle calls ask({ permission: "list" }). OpenCode's agent sends
 * bash, edit, glob, grep, question, read, skill, task, todowrite, webfetch, write (its `invalid`
 * tool is never offered); a model's `list` call is repaired into `invalid`, whose result ("… Model
 * tried to call unavailable tool 'list'. Available tools: …") goes back unasked. Kilo sends its own
 * set (background_process, board_post, … no list) and returns the AI SDK's error the same way.
 * This session pins that: no permission block, generating → idle, even with list on ask.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sleep } from '../lib/lab-kit.mjs';

const starting = [{ state: 'starting' }, { state: 'idle' }];

/**
 * @param {RegExp} shown - how the TUI shows the failed call (rows joined with single blanks):
 *   OpenCode prints the invalid tool's input with the error; Kilo a bare `⚙ list [path=…]` row.
 */
export const listSession = (shown) => ({
  name: 'list-unavailable', cols: 80, rows: 24, permission: { list: 'ask' },
  description: 'a scripted `list` call of the private HOME with permission.list "ask" → the CLI has no list tool: its tool result says "Model tried to call unavailable tool \'list\'", no permission block → generating → idle',
  run: async (c) => {
    await c.prompt('please list my home');
    await c.unaskedTool();
    await c.turnEnd();
    await sleep(300);
    if (process.env.SPECTERM_LAB_PROBE) process.stderr.write(`--- after list ---\n${c.s.driver.snapshot()}\n`);
    // The server's log (lab/lib/openai-chat-server.mjs, in the session's temp dir): what the CLI sent back.
    const log = path.join(path.dirname(c.home), 'server.log');
    const events = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
    const result = events.find((e) => e.event === 'tool_result');
    c.check('the tool result is the CLI\'s "unavailable tool \'list\'" error', /unavailable tool 'list'/.test(result?.output ?? ''), String(result?.output));
    c.check('the failed call is on screen', shown.test(c.s.driver.snapshot().replace(/\s+/g, ' ')), c.s.driver.snapshot());
  },
  // The committed expectations add an `at` check inside the tool's run (from labels.json): busy, no modal.
  expect: { sequence: [...starting, { state: 'busy', status: 'generating', modal: null }, { state: 'idle', modal: null }], final: { state: 'idle' } },
});
