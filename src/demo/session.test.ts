import { describe, expect, it } from 'vitest';
import { createKeyDecoder } from './key-decoder.js';
import { parseScenario, type Scenario } from './scenario.js';
import { DemoSession, EXIT_CODE_CTRL_C, EXIT_CODE_UNTRUSTED, type DemoSessionOptions, type SessionEffect, type SessionView } from './session.js';
import { formatSpinnerLine } from './transcript.js';

function scenario(): Scenario {
  const result = parseScenario({
    model: 'demo-sonnet',
    models: ['demo-sonnet', 'demo-opus'],
    verbs: ['Pondering'],
    rules: [
      {
        match: 'test',
        steps: [
          { think_ms: 1000 },
          { tool: 'Bash', command: 'npm test', approval: true, run_ms: 500, output: ['ok 12 tests'] },
          { say: 'All green.', wpm: 600 },
        ],
      },
      { match: 'boom', steps: [{ error: '429 rate limited' }] },
      { steps: [{ think_ms: 1000 }, { say: 'one two three\n\nfour five', wpm: 600 }] },
    ],
  });
  if (!result.ok) throw new Error(result.errors.join('; '));
  return result.scenario;
}

function start(overrides: Partial<DemoSessionOptions> = {}) {
  const effects: SessionEffect[] = [];
  const session = new DemoSession(
    { scenario: scenario(), speed: 1, seed: 1, cwd: '/work', showTrustPrompt: false, focusGated: false, freezeOnFocusLoss: false, ...overrides },
    (e) => effects.push(e),
  );
  const decoder = createKeyDecoder();
  const type = (raw: string) => session.handleInput(decoder.push(raw));
  const flushEscape = () => session.handleInput(decoder.flush());
  return { session, effects, type, flushEscape, view: (): SessionView => session.getView() };
}

function committedText(view: SessionView): string[] {
  return view.committed.map((i) => {
    switch (i.kind) {
      case 'user': return `> ${i.text}`;
      case 'assistant': return `${i.continuation ? '  ' : '⏺ '}${i.text}`;
      case 'tool': return `⏺ ${i.name}(${i.command}) [${i.status}] ${i.output.join('|')}`;
      case 'result': return `⎿ ${i.text}`;
      case 'worked': return `worked ${i.seconds}s`;
      default: return i.kind;
    }
  });
}

describe('DemoSession', () => {
  it('starts idle with the banner and the input box', () => {
    const { view } = start();
    expect(committedText(view())).toEqual(['banner']);
    expect(view()).toMatchObject({ showInput: true, modal: null, spinner: null, hint: { left: '? for shortcuts', right: 'demo-sonnet' }, title: '✳ Demo Agent' });
  });

  it('streams a turn word by word under a spinner, then ends with the worked line', () => {
    const { session, type, view } = start();
    type('hello there\r');
    expect(session.isGenerating).toBe(true);
    expect(formatSpinnerLine(view().spinner!)).toMatch(/^· Pondering… \(0s · ↑ 0 tokens · esc to interrupt\)$/);
    session.advance(1000);
    expect(view().live).toEqual([expect.objectContaining({ kind: 'assistant', text: 'one ' })]);
    session.advance(250);
    expect(view().live).toEqual([expect.objectContaining({ text: 'one two three' })]);
    session.advance(100);
    // The first paragraph is committed; the second streams as a continuation.
    expect(view().live).toEqual([expect.objectContaining({ text: 'four ', continuation: true })]);
    session.advance(1000);
    expect(session.isGenerating).toBe(false);
    expect(committedText(view())).toEqual(['banner', '> hello there', '⏺ one two three', '  four five', 'worked 2s']);
    expect(view().title).toBe('✳ Demo Agent');
  });

  it('submits exactly once per Enter and keeps text typed while generating in the box', () => {
    const { session, type, view } = start();
    type('hi\r\r');
    type('next question\r');
    expect(view().committed.filter((i) => i.kind === 'user')).toHaveLength(1);
    expect(view().input.text).toBe('next question');
    session.advance(5000);
    expect(view().input.text).toBe('next question');
    type('\r');
    expect(view().committed.filter((i) => i.kind === 'user')).toHaveLength(2);
  });

  it('inserts a bracketed paste verbatim, newlines included, without submitting', () => {
    const { session, type, view } = start();
    type('\u001b[200~line 1\r\nline 2\u001b[201~');
    expect(view().input.text).toBe('line 1\nline 2');
    expect(session.isGenerating).toBe(false);
  });

  it('asks for approval with three numbered choices and runs the tool after 1', () => {
    const { session, type, view } = start();
    type('run the tests\r');
    session.advance(1000);
    expect(view().spinner).toBeNull();
    expect(view().modal).toEqual({
      kind: 'approval',
      title: 'Bash command',
      command: 'npm test',
      cursor: 0,
      options: ['Yes', "Yes, and don't ask again for npm commands", 'No, and tell Demo Agent what to do differently (esc)'],
    });
    session.advance(10_000);
    expect(view().modal).not.toBeNull();
    type('1');
    expect(view().modal).toBeNull();
    expect(view().live).toEqual([expect.objectContaining({ kind: 'tool', status: 'running' })]);
    session.advance(500);
    session.advance(1000);
    expect(committedText(view()).slice(2)).toEqual(['⏺ Bash(npm test) [done] ok 12 tests', '⏺ All green.', expect.stringMatching(/^worked \d+s$/)]);
  });

  it('moves the approval cursor with arrows, and remembers "don\'t ask again" for the session', () => {
    const { session, type, view } = start();
    type('test\r');
    session.advance(1000);
    type('\u001b[B');
    expect(view().modal).toMatchObject({ cursor: 1 });
    type('\r');
    session.advance(3000);
    type('test again\r');
    session.advance(1000);
    expect(view().modal).toBeNull();
    expect(view().live).toEqual([expect.objectContaining({ kind: 'tool', status: 'running' })]);
  });

  it('declines on Esc (and on 3): User declined, the turn ends without a worked line', () => {
    for (const answer of ['\u001b', '3']) {
      const { session, type, flushEscape, view } = start();
      type('test\r');
      session.advance(1000);
      type(answer);
      flushEscape();
      expect(session.isGenerating).toBe(false);
      expect(committedText(view()).slice(-2)).toEqual(['⏺ Bash(npm test) [declined] ', '⎿ User declined']);
    }
  });

  it('interrupts a turn on Ctrl-C and keeps what was already streamed', () => {
    const { session, type, view } = start();
    type('hi\r');
    session.advance(1150);
    type('\u0003');
    expect(session.isGenerating).toBe(false);
    expect(committedText(view()).slice(-2)).toEqual(['⏺ one two ', '⎿ Interrupted by user']);
  });

  it('exits with 130 on a second Ctrl-C within 2 s at idle, but not after the window passed', () => {
    const { session, type, view, effects } = start();
    type('\u0003');
    expect(view().hint.left).toBe('Press Ctrl-C again to exit');
    session.advance(2100);
    expect(view().hint.left).toBe('? for shortcuts');
    type('\u0003');
    expect(effects).toEqual([]);
    session.advance(500);
    type('\u0003');
    expect(effects).toEqual([{ type: 'exit', code: EXIT_CODE_CTRL_C }]);
  });

  it('clears a non-empty input on Ctrl-C instead of arming the exit', () => {
    const { type, view } = start();
    type('draft\u0003');
    expect(view().input.text).toBe('');
    expect(view().hint.left).toBe('? for shortcuts');
  });

  it('ends the turn with an API error line for an error step', () => {
    const { type, view, session } = start();
    type('boom\r');
    expect(session.isGenerating).toBe(false);
    expect(committedText(view()).slice(-1)).toEqual(['⎿ API Error: 429 rate limited']);
  });

  it('opens the model picker on /model; a digit selects and the hint shows the new model', () => {
    const { type, view, session } = start();
    type('/model\r');
    expect(view().modal).toEqual({ kind: 'picker', models: [{ name: 'demo-sonnet' }, { name: 'demo-opus' }], active: 'demo-sonnet', cursor: 0 });
    expect(view().showInput).toBe(false);
    type('2');
    expect(view().modal).toBeNull();
    expect(session.model).toBe('demo-opus');
    expect(view().hint.right).toBe('demo-opus');
    type('/model\r\u001b[B\u001b[A\r');
    expect(session.model).toBe('demo-sonnet');
  });

  it('handles /help, /clear, /exit and unknown commands', () => {
    const { type, view, effects } = start();
    type('/help\r');
    expect(committedText(view()).at(-1)).toMatch(/^⎿ Demo Agent — a scripted coding-agent TUI/);
    type('/nope\r');
    expect(committedText(view()).at(-1)).toBe('⎿ Unknown slash command: /nope. Type /help for the list.');
    const epoch = view().epoch;
    type('/clear\r');
    expect(view().committed).toEqual([]);
    expect(view().epoch).toBe(epoch + 1);
    expect(effects).toEqual([{ type: 'clear-screen' }]);
    type('/exit\r');
    expect(effects.at(-1)).toEqual({ type: 'exit', code: 0 });
  });

  it('shows the trust modal first; 1 accepts and asks the host to persist, 2 exits with 1', () => {
    const a = start({ showTrustPrompt: true });
    expect(a.view().modal).toEqual({ kind: 'trust', cwd: '/work', cursor: 0, options: ['Yes, proceed', 'No, exit'] });
    expect(a.view().showInput).toBe(false);
    a.type('hello');
    expect(a.view().modal).not.toBeNull();
    a.type('1');
    expect(a.effects).toEqual([{ type: 'trust-accepted' }]);
    expect(a.view().modal).toBeNull();
    expect(committedText(a.view())).toEqual(['banner']);
    const b = start({ showTrustPrompt: true });
    b.type('2');
    expect(b.effects).toEqual([{ type: 'exit', code: EXIT_CODE_UNTRUSTED }]);
  });

  it('drops all input until focus-in when focus-gated, and pauses again on focus-out', () => {
    const { type, view } = start({ focusGated: true });
    expect(view().hint.left).toBe('(input paused — terminal not focused)');
    type('dropped');
    expect(view().input.text).toBe('');
    type('\u001b[Ikept');
    expect(view().input.text).toBe('kept');
    expect(view().hint.left).toBe('? for shortcuts');
    type('\u001b[Omore');
    expect(view().input.text).toBe('kept');
  });

  it('ignores focus reports without focus gating (they never reach the input box)', () => {
    const { type, view } = start();
    type('\u001b[Ia\u001b[Ob');
    expect(view().input.text).toBe('ab');
  });

  it('freezes a generating screen on focus-out until focus-in or a key', () => {
    const { session, type, view } = start({ freezeOnFocusLoss: true });
    type('hi\r');
    session.advance(300);
    type('\u001b[O');
    const frozen = view();
    session.advance(5000);
    expect(session.isFrozen).toBe(true);
    expect(view()).toBe(frozen);
    type('\u001b[I');
    expect(session.isFrozen).toBe(false);
    session.advance(5000);
    expect(session.isGenerating).toBe(false);
  });

  it('scales scenario time by speed', () => {
    const { session, type } = start({ speed: 0.2 });
    type('hi\r');
    session.advance(500);
    expect(session.isGenerating).toBe(false);
  });
});
