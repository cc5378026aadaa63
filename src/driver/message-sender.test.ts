import { describe, expect, it } from 'vitest';
import type { StateStatus } from '../core/spec/types.js';
import { MAX_MESSAGE_BYTES, MessageSender, type SenderHost } from './message-sender.js';
import { VirtualScheduler } from './schedulers.js';

/** A sender on a virtual clock whose agent is ready and idle; records every write. */
function idleHost() {
  const scheduler = new VirtualScheduler();
  const writes: string[] = [];
  const reports: Array<{ status: string; length: number; reason?: string }> = [];
  let status: StateStatus = 'idle';
  const host: SenderHost = {
    scheduler,
    platform: 'linux',
    win32SubmitMode: 'paste',
    sendConfig: () => ({ submit_key: '\r' }),
    write: (data) => {
      writes.push(data);
      // The agent starts working once the submit key arrives.
      if (data === '\r') status = 'generating';
    },
    status: () => status,
    isReady: () => true,
    viewportText: () => '',
    scrollbackText: () => '',
    lastOutputAt: () => 0,
    report: (s, length, reason) => reports.push({ status: s, length, ...(reason ? { reason } : {}) }),
    log: () => {},
  };
  return { sender: new MessageSender(host), scheduler, writes, reports };
}

describe('MessageSender message size limit', () => {
  it('refuses a message above MAX_MESSAGE_BYTES with MESSAGE_TOO_LARGE and writes nothing', () => {
    const { sender, scheduler, writes } = idleHost();
    const outcome = sender.request({ text: 'a'.repeat(10 * 1024 * 1024) });
    expect(outcome).toEqual({
      code: 'MESSAGE_TOO_LARGE',
      reason: expect.stringMatching(/10485760 bytes.*largest message accepted is 1048576 bytes \(1 MiB\).*send a shorter message/),
    });
    scheduler.runUntilIdle();
    expect(writes).toEqual([]);
    expect(sender.hasInFlightSubmit()).toBe(false);
  });

  it('counts UTF-8 bytes, not characters', () => {
    const { sender, writes } = idleHost();
    // 349 526 characters, but 3 bytes each: 1 048 578 bytes, 2 over the limit.
    const outcome = sender.request({ text: '漢'.repeat(Math.ceil(MAX_MESSAGE_BYTES / 3)) });
    expect(outcome).toMatchObject({ code: 'MESSAGE_TOO_LARGE', reason: expect.stringContaining('1048578 bytes') });
    expect(writes).toEqual([]);
  });

  it('delivers a message of exactly MAX_MESSAGE_BYTES whole, then the submit key', () => {
    const { sender, scheduler, writes } = idleHost();
    const text = 'x'.repeat(MAX_MESSAGE_BYTES);
    expect(sender.request({ text })).toBe('delivered');
    scheduler.runUntilIdle();
    expect(writes[0]).toBe(text);
    expect(writes.slice(1)).toEqual(['\r']);
  });
});

describe('MessageSender after a command that starts no turn', () => {
  it('types the next message once the latch expires, even when no evaluation follows (a still screen)', () => {
    const scheduler = new VirtualScheduler();
    const writes: string[] = [];
    let typed = '';
    let viewport = 'idle';
    let status: StateStatus = 'idle';
    const host: SenderHost = {
      scheduler, platform: 'linux', win32SubmitMode: 'paste', sendConfig: () => ({ submit_key: '\r' }),
      write: (data) => {
        writes.push(data);
        if (data !== '\r') { typed = data; return; }
        // `/clear` repaints the screen and stays idle (its Enter was consumed); a message starts a turn.
        if (typed === '/clear') viewport = 'cleared';
        else status = 'generating';
      },
      status: () => status, isReady: () => true, viewportText: () => viewport, scrollbackText: () => '',
      lastOutputAt: () => 0, report: () => {}, log: () => {},
    };
    const sender = new MessageSender(host);
    expect(sender.request({ text: '/clear' })).toBe('delivered');
    scheduler.advanceBy(5_000);
    sender.afterEvaluation();
    expect(sender.request({ text: 'hello again' })).toBe('queued');
    // No output, so no evaluation: the latch's expiry alone must let the queued message go.
    scheduler.advanceBy(40_000);
    expect(writes).toContain('hello again');
  });
});

describe('MessageSender queuedCount', () => {
  it('counts a body taken from the queue until it is typed (a send queued meanwhile is behind it)', () => {
    const scheduler = new VirtualScheduler();
    const writes: string[] = [];
    let status: StateStatus = 'idle';
    const host: SenderHost = {
      scheduler, platform: 'linux', win32SubmitMode: 'paste', sendConfig: () => ({ submit_key: '\r' }),
      write: (data) => { writes.push(data); if (data === '\r') status = 'generating'; },
      status: () => status, isReady: () => true, viewportText: () => '', scrollbackText: () => '',
      lastOutputAt: () => 0, report: () => {}, log: () => {},
    };
    const sender = new MessageSender(host);
    expect(sender.request({ text: 'first' })).toBe('delivered');
    scheduler.runUntilIdle();
    expect(sender.request({ text: 'second' })).toBe('queued');
    expect(sender.queuedCount()).toBe(1);
    sender.afterEvaluation(); // generating: the submit was consumed, the latch lets go
    status = 'idle';
    sender.afterEvaluation(); // the turn ended: 'second' is taken from the queue, typed a moment later
    expect(writes).not.toContain('second');
    expect(sender.queuedCount()).toBe(1);
    scheduler.runUntilIdle();
    expect(writes).toContain('second');
    expect(sender.queuedCount()).toBe(0);
  });
});
