/**
 * `/bg N`: the Demo Agent starts a job of its own that runs N seconds (scenario time) in the
 * background, answers, and goes idle while the job still runs — its hint line says so until it
 * ends. A deterministic stand-in for Claude Code's background shells (docs/demo-agent.md).
 */
import { describe, expect, it } from 'vitest';
import { createKeyDecoder } from './key-decoder.js';
import { parseScenario } from './scenario.js';
import { DemoSession, type SessionView } from './session.js';
import { BackgroundJobs, parseJobSeconds } from './background-jobs.js';

function start() {
  const parsed = parseScenario({ model: 'demo-sonnet', models: ['demo-sonnet'], verbs: ['Pondering'], rules: [{ steps: [{ say: 'ok' }] }] });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  const session = new DemoSession({ scenario: parsed.scenario, speed: 1, seed: 1, cwd: '/work', showTrustPrompt: false, focusGated: false, freezeOnFocusLoss: false }, () => {});
  const decoder = createKeyDecoder();
  return { session, type: (raw: string) => session.handleInput(decoder.push(raw)), view: (): SessionView => session.getView() };
}

describe('/bg', () => {
  it('answers, goes idle with the job still running in the hint line, and drops it when the job ends', () => {
    const { session, type, view } = start();
    type('/bg 3\r');
    expect(session.isGenerating).toBe(true);
    expect(view().hint.left).toBe('? for shortcuts · 1 background job');
    session.advance(1500);
    expect(session.isGenerating).toBe(false);
    expect(view().committed.some((i) => i.kind === 'assistant' && /background job \(3 s\)/.test(i.text))).toBe(true);
    expect(view().hint.left).toBe('? for shortcuts · 1 background job');
    type('/bg 1\r');
    session.advance(1200);
    expect(view().hint.left).toBe('? for shortcuts · 1 background job');
    session.advance(400); // 3.1 s after the first
    expect(view().hint.left).toBe('? for shortcuts');
  });

  it('counts jobs that overlap', () => {
    const { session, type, view } = start();
    type('/bg 5\r');
    session.advance(1500);
    type('/bg 5\r');
    session.advance(100);
    expect(view().hint.left).toBe('? for shortcuts · 2 background jobs');
  });

  it('refuses a duration that is not a number of seconds, saying what to type', () => {
    const { session, type, view } = start();
    type('/bg soon\r');
    expect(session.isGenerating).toBe(false);
    const last = view().committed.at(-1);
    expect(last).toMatchObject({ kind: 'result', tone: 'error', text: 'Usage: /bg <seconds> — a number from 0.1 to 3600, e.g. /bg 3' });
  });
});

describe('BackgroundJobs', () => {
  it('ends each job after its own time and reports when the count changed', () => {
    const jobs = new BackgroundJobs();
    jobs.start(1000);
    jobs.start(2500);
    expect(jobs.count).toBe(2);
    expect(jobs.advance(999)).toBe(false);
    expect(jobs.advance(1)).toBe(true);
    expect(jobs.count).toBe(1);
    expect(jobs.advance(2000)).toBe(true);
    expect(jobs.count).toBe(0);
  });

  it('parses seconds within bounds', () => {
    expect(parseJobSeconds('3')).toBe(3000);
    expect(parseJobSeconds('0.5')).toBe(500);
    expect(parseJobSeconds('0')).toBeNull();
    expect(parseJobSeconds('3601')).toBeNull();
    expect(parseJobSeconds(undefined)).toBeNull();
    expect(parseJobSeconds('1e3')).toBeNull();
  });
});
