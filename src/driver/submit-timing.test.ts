import { describe, expect, it } from 'vitest';
import { echoProbes, hashBody, resolveSubmitDelayMs, splitTrailingEnter } from './submit-timing.js';

describe('resolveSubmitDelayMs', () => {
  it('gives the spec delay for a short body', () => {
    expect(resolveSubmitDelayMs(200, 'hi')).toBe(200);
    expect(resolveSubmitDelayMs(500, 'hi')).toBe(500);
  });
  it('never goes under the 200 ms floor, even with a zero or invalid spec delay', () => {
    expect(resolveSubmitDelayMs(0, 'hi')).toBe(200);
    expect(resolveSubmitDelayMs(-5, 'hi')).toBe(200);
    expect(resolveSubmitDelayMs(Number.NaN, 'hi')).toBe(200);
    expect(resolveSubmitDelayMs(undefined, 'hi')).toBe(200);
  });
  it('grows with length: 2 500 chars on one line → 600 ms', () => {
    expect(resolveSubmitDelayMs(200, 'x'.repeat(2500))).toBe(600);
  });
  it('grows with newlines and length, each capped: 10 newlines + 3 000 chars → 1600 ms', () => {
    const body = ('y'.repeat(299) + '\n').repeat(10);
    expect(body.length).toBe(3000);
    expect(resolveSubmitDelayMs(200, body)).toBe(1600);
    expect(resolveSubmitDelayMs(200, '\n'.repeat(100) + 'z'.repeat(20000))).toBe(1800);
  });
  it('honours a larger manifest delay', () => {
    expect(resolveSubmitDelayMs(200, 'hi', 900)).toBe(900);
  });
});

describe('hashBody', () => {
  it('is stable for equal text and differs for different text or length', () => {
    expect(hashBody('hello')).toBe(hashBody('hello'));
    expect(hashBody('hello')).not.toBe(hashBody('hellp'));
    expect(hashBody('a')).not.toBe(hashBody('a '));
  });
});

describe('echoProbes', () => {
  it('ignores whitespace and keeps 16 chars at each end', () => {
    expect(echoProbes('  the quick brown fox jumps over the lazy dog ')).toEqual({ head: 'thequickbrownfox', tail: 'jumpsoverthelazydog'.slice(-16) });
  });
});

describe('splitTrailingEnter', () => {
  it('splits a trailing Enter off a slash command only when there is a prefix', () => {
    expect(splitTrailingEnter('/model\r')).toEqual(['/model', '\r']);
    expect(splitTrailingEnter('/model\r\n')).toEqual(['/model', '\r\n']);
    expect(splitTrailingEnter('\r')).toBeNull();
    expect(splitTrailingEnter('\x1b[Z')).toBeNull();
  });
});
