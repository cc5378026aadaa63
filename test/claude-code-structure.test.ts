/**
 * The Claude Code spec recognises menus by their structure, not their wording (specs/claude-code,
 * issue 13): replays of real Claude Code 2.1.332 recordings through the real driver in virtual time.
 * - An answer that merely looks like a menu (numbered list, `❯ 1. Yes` in prose, menu hints as
 *   text) is never a modal, at any size.
 * - A permission prompt whose wording the spec has never seen (question, title and hint reworded
 *   in the recorded bytes) is still an approval with its four buttons.
 * - Startup gates are `confirm` and questions `picker`: neither is ever reported as an approval.
 * - Session lists (/resume, claude --resume) get one button per session, never a gate.
 * - Unnumbered menus (/theme, /permissions, /config) get their rows as buttons with display
 *   indices 1..N in order, at every size (200×50 draws the whole list
 *   above the 16-row live bottom).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSpecRef } from '../src/catalog/builtin.js';
import { replaySession, type StateChangeRecord } from '../src/harness/replay-session.js';
import { parseAsciicast, type Asciicast } from '../src/recording/index.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'specs', 'claude-code', 'recordings');

function claudeSpec() {
  const r = loadSpecRef('claude-code');
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.spec;
}

function replay(cast: Asciicast): StateChangeRecord[] {
  const r = replaySession({ cast, spec: claudeSpec() });
  r.driver.shutdown();
  return r.changes;
}

const readCast = (name: string): Asciicast => parseAsciicast(fs.readFileSync(path.join(dir, name), 'utf8'), { source: name });
const recordings = (prefix: string): string[] => fs.readdirSync(dir).filter((f) => f.endsWith('.cast') && (f === `${prefix}.cast` || f.startsWith(`${prefix}-`))).sort();

describe('claude-code spec: menus by structure', () => {
  it('never takes an answer with a numbered list, a ❯ and menu hints in prose for a modal', () => {
    const names = recordings('numbered-answer');
    expect(names.length).toBeGreaterThanOrEqual(2);
    for (const name of names) {
      const changes = replay(readCast(name));
      expect(changes.map((c) => c.state), name).toContain('busy');
      expect(changes.filter((c) => c.status === 'approval' || c.modal !== null), name).toEqual([]);
      expect(changes.at(-1)?.state, name).toBe('idle');
    }
  });

  it('reads a permission prompt reworded beyond anything the spec names as an approval with its buttons', () => {
    const cast = readCast('approve-yes.cast');
    // The recorded bytes place each word with cursor moves; same-length substitutions keep the layout.
    const reword = (s: string): string => s.replaceAll('proceed?', 'carry on').replaceAll('Bash command', 'Shell action').replaceAll('cancel', 'return');
    const reworded: Asciicast = { ...cast, events: cast.events.map((e) => (e.type === 'o' ? { ...e, data: reword(e.data) } : e)) };
    expect(reworded.events.some((e) => e.type === 'o' && e.data.includes('Shell action'))).toBe(true);
    expect(reworded.events.some((e) => e.type === 'o' && e.data.includes('proceed?'))).toBe(false);
    const approval = replay(reworded).find((c) => c.state === 'approval');
    expect(approval?.modal?.kind).toBe('approval');
    expect(approval?.modal?.title).toBe('Shell action');
    expect(approval?.modal?.buttons.map((b) => b.label)).toEqual([
      'Yes',
      expect.stringMatching(/^Yes, and always allow access to \/tmp\/ccl-\w+\/w from this project$/),
      'Yes, and switch to auto mode · auto mode handles these prompts for you',
      'No',
    ]);
  });

  it('reports startup gates as confirm and questions as picker, never as approval', () => {
    const gates = ['folder-trust', 'bypass-gate', 'apikey-gate', 'mcp-server-gate', 'mcp-servers-gate'].flatMap(recordings);
    // A session list at start-up (`claude --resume`) is a question too, not a gate.
    const questions = ['ask-question', 'ask-multi', 'model-picker', 'menu-theme', 'menu-permissions', 'menu-config', 'resume-picker', 'resume-start', 'login-menu'].flatMap(recordings);
    expect(gates.length).toBeGreaterThanOrEqual(5);
    expect(questions.length).toBeGreaterThanOrEqual(3);
    for (const name of gates) {
      const modals = replay(readCast(name)).filter((c) => c.modal !== null);
      expect(modals.length, name).toBeGreaterThan(0);
      expect(new Set(modals.map((c) => c.modal?.kind)), name).toEqual(new Set(['confirm']));
    }
    for (const name of questions) {
      const modals = replay(readCast(name)).filter((c) => c.modal !== null);
      expect(modals.length, name).toBeGreaterThan(0);
      expect(new Set(modals.map((c) => c.modal?.kind)), name).toEqual(new Set(['picker']));
    }
  });

  it('gives unnumbered menus their rows as buttons: display indices in order', () => {
    const names = ['menu-theme', 'menu-permissions', 'menu-config'].flatMap(recordings);
    expect(names.length).toBeGreaterThanOrEqual(9);
    for (const name of names) {
      const menu = replay(readCast(name)).find((c) => c.state === 'menu' || c.state === 'settings');
      const buttons = menu?.modal?.buttons ?? [];
      expect(menu?.modal?.kind, name).toBe('picker');
      expect(buttons.map((b) => b.index), name).toEqual(buttons.map((_, i) => i + 1));
      // Not options: the scroll marker, the ✔ current-theme mark, a note under a setting, a details row.
      expect(buttons.filter((b) => /^[↑↓] |✔|^Thinking can't| · /.test(b.label)), name).toEqual([]);
    }
    const theme = replay(readCast('menu-theme-200x50.cast')).find((c) => c.state === 'menu');
    expect(theme?.modal?.buttons).toHaveLength(8);
  });

  it('gives a session list one button per session — the title row, not its details row — after start and at start-up', () => {
    const names = ['resume-picker', 'resume-start'].flatMap(recordings);
    expect(names.length).toBeGreaterThanOrEqual(6);
    for (const name of names) {
      const changes = replay(readCast(name));
      const list = changes.find((c) => c.state === 'sessions');
      expect(list?.modal?.kind, name).toBe('picker');
      expect(list?.modal?.title, name).toBe('Resume session');
      // Newest first; `2 seconds ago · HEAD · 155KB` and the folder row `w` are not sessions.
      expect(list?.modal?.buttons.map((b) => [b.index, b.label]), name).toEqual([[1, 'count to three for the lab'], [2, 'say hello to the lab']]);
      // Never a gate (confirm), and no state with approval status but no modal to answer.
      expect(changes.filter((c) => c.state === 'gate'), name).toEqual([]);
      expect(changes.filter((c) => c.status === 'approval' && c.modal === null), name).toEqual([]);
      expect(changes.at(-1)?.state, name).toBe('idle');
    }
  });
});
