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

/**
 * /init's prompt starts with a line break, so its session's title row is blank in the list: the
 * entry is labelled by its detail row, the only text it shows.
 */
export const UNTITLED_SESSIONS = [{
  name: 'resume-untitled', cols: 80, rows: 24,
  description: '/init (a turn), /clear, then /resume: "Resume Session" lists /init\'s session, whose title row is blank (the cursor alone on it): its button is its detail row "just now · 2 messages" (kind picker) → Esc → idle',
  run: async (c) => {
    await typeCommand(c, '/init');
    // Its scripted answer is short: the turn may end before a spinner is drawn.
    await sleep(6000);
    await backToIdle(c, '/init');
    await typeCommand(c, '/clear');
    await sleep(2500);
    await typeCommand(c, '/resume');
    await modal(c, { state: 'sessions', kind: 'picker', title: 'Resume Session', buttons: ['just now · 2 messages'], shown: /Resume Session[\s\S]*to cancel/ }, '\u001b', { timeoutMs: 15_000 });
    await backToIdle(c, 'Esc closed /resume');
  },
  expect: { sequence: [...starting, pickerSeq('sessions', 'Resume Session', ['just now · 2 messages']), { state: 'idle', modal: null }], final: { state: 'idle' } },
}];
