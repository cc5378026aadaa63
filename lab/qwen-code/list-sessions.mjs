/**
 * Qwen Code lab sessions for the session lists the crawler found with no buttons (issue 29):
 * /resume's "Resume Session" and /delete's "Delete Session" once there are sessions to list.
 * Two conversations are held first (a turn, /clear, a turn), so the lists have rows to choose.
 */
import { sleep } from '../lib/lab-kit.mjs';
import { backToIdle, modal, pickerSeq, typeCommand } from './prompt-sessions.mjs';

const starting = [{ state: 'starting' }, { state: 'idle' }];
const turnSeq = [{ state: 'busy', status: 'generating' }, { state: 'idle' }];

/** Two conversations: a turn, /clear (a new session), a turn. */
async function twoConversations(c) {
  await c.prompt('say hello');
  await c.turnEnd();
  await typeCommand(c, '/clear');
  await sleep(2500);
  await c.prompt('what is a monad');
  await c.turnEnd();
}

/** The conversations as the lists show them: newest first, each by its first message. */
const LISTED = ['what is a monad', 'say hello'];

const LISTS = [
  ['resume-list', '/resume', 'Resume Session', /Resume Session[\s\S]*to cancel/],
  ['delete-list', '/delete', 'Delete Session', /Delete Session[\s\S]*to cancel/],
];

export const LIST_SESSIONS = LISTS.flatMap(([name, command, title, shown]) => [[80, 24], [60, 20], [200, 50]].map(([cols, rows]) => ({
  name: cols === 80 ? name : `${name}-${cols}x${rows}`, cols, rows,
  description: `two conversations, then ${command}: "${title}" lists them (kind picker; each session row a button, its age and message count not part of the label) → Esc → idle`,
  run: async (c) => {
    await twoConversations(c);
    await typeCommand(c, command);
    await modal(c, { state: 'sessions', kind: 'picker', title, buttons: LISTED, shown }, '\u001b', { timeoutMs: 15_000 });
    await backToIdle(c, `Esc closed ${command}`);
  },
  expect: { sequence: [...starting, ...turnSeq, ...turnSeq, pickerSeq('sessions', title, LISTED), { state: 'idle', modal: null }], final: { state: 'idle' } },
})));
