import { describe, expect, it } from 'vitest';
import { SpectermError } from '../protocol/index.js';
import type { AuditEntry, RequestContext } from './contracts.js';
import { Operations } from './executor.js';
import { RateLimiter } from './rate-limiter.js';

const ctx = (scope: 'read' | 'input' | 'approve' | 'admin', via: RequestContext['via'] = 'http'): RequestContext => ({
  principal: { tokenId: `t_${scope}`, name: `${scope}-device`, scope }, requestId: 'r', remoteAddress: '127.0.0.1', via,
});

function setup(handlers: Record<string, (input: any) => unknown> = {}) {
  const clock = { now: 1_000 };
  const audit: AuditEntry[] = [];
  const unexpected: unknown[] = [];
  const ops = new Operations({
    handlers: { sendKeys: () => ({ written_bytes: 1 }), getSession: () => { throw new SpectermError({ code: 'SESSION_NOT_FOUND', detail: 'no session' }); }, ...handlers } as never,
    rateLimiter: new RateLimiter({ burst: 2, perSecond: 1, now: () => clock.now }),
    audit: (e) => audit.push(e), now: () => clock.now, onUnexpected: (e) => unexpected.push(e),
  });
  return { ops, audit, unexpected, clock };
}

const refusal = async (p: Promise<unknown>) => {
  try { await p; } catch (e) { return e as SpectermError; }
  throw new Error('expected a refusal');
};

describe('Operations: one executor for every transport', () => {
  it('refuses a scope below the operation\'s before the body is read, and audits the keystroke refusal', async () => {
    const { ops, audit } = setup();
    let bodyRead = false;
    const e = await refusal(ops.call('sendKeys', { params: { id: 's_1' }, body: async () => { bodyRead = true; return { data: 'y' }; }, label: 'POST /keys' }, ctx('read', 'nats')));
    expect(e.code).toBe('SCOPE_INSUFFICIENT');
    expect(e.message).toContain('POST /keys needs the \'input\' scope');
    expect(bodyRead).toBe(false);
    expect(audit).toMatchObject([{ what: 'sendKeys', via: 'nats', outcome: 'refused', code: 'SCOPE_INSUFFICIENT', status: 403, params: { id: 's_1' } }]);
  });

  it('rate-limits keystroke operations per token with a retry time', async () => {
    const { ops, clock } = setup({ getSession: () => ({}) });
    const keys = () => ops.call('sendKeys', { params: { id: 's_1' }, body: { data: 'y' }, label: 'keys' }, ctx('input'));
    await keys();
    await keys();
    const e = await refusal(keys());
    expect([e.code, e.retryAfterSeconds]).toEqual(['RATE_LIMITED', 1]);
    clock.now += 1_000;
    await expect(keys()).resolves.toEqual({ written_bytes: 1 });
  });

  it('validates params, query and body by the operation\'s schemas and never calls the handler on bad input', async () => {
    let called = 0;
    const { ops } = setup({ sendKeys: () => { called += 1; return { written_bytes: 1 }; } });
    const badBody = await refusal(ops.call('sendKeys', { params: { id: 's_1' }, body: { data: 7 }, label: 'keys' }, ctx('input')));
    expect(badBody.code).toBe('VALIDATION_FAILED');
    expect(badBody.errors[0]!.path).toBe('/data');
    const badQuery = await refusal(ops.call('sendKeys', { params: { id: 's_1' }, query: { force: '1' }, body: { data: 'y' }, label: 'keys' }, ctx('input')));
    expect([badQuery.code, badQuery.errors[0]!.path]).toEqual(['VALIDATION_FAILED', '/query/force']);
    const noBody = await refusal(ops.call('listSessions', { body: { x: 1 }, label: 'GET /sessions' }, ctx('read')));
    expect(noBody.code).toBe('BODY_NOT_EXPECTED');
    expect(called).toBe(0);
  });

  it('passes a handler\'s refusal through as it is, and hides an unexpected failure behind INTERNAL', async () => {
    const { ops, unexpected } = setup({ listSessions: () => { throw new Error('secret /home/me/.token'); } });
    expect((await refusal(ops.call('getSession', { params: { id: 's_9' }, label: 'x' }, ctx('read')))).code).toBe('SESSION_NOT_FOUND');
    const e = await refusal(ops.call('listSessions', { label: 'x' }, ctx('read')));
    expect(e.code).toBe('INTERNAL');
    expect(e.message).not.toContain('secret');
    expect(unexpected).toHaveLength(1);
  });

  it('never sends an answer outside the operation\'s schema', async () => {
    const { ops, unexpected } = setup({ listSessions: () => ({ sessions: 'not a list' }) });
    expect((await refusal(ops.call('listSessions', { label: 'x' }, ctx('read')))).code).toBe('INTERNAL');
    expect(String(unexpected[0])).toContain('listSessions answered outside its schema');
  });

  it('a full disk is STORAGE_FULL with the directory to free, whatever threw it', async () => {
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', path: '/var/state/specterm/specterm.db' });
    const { ops } = setup({ listSessions: () => { throw full; } });
    const e = await refusal(ops.call('listSessions', { label: 'x' }, ctx('read')));
    expect(e.code).toBe('STORAGE_FULL');
    expect(e.status).toBe(507);
  });

  it('a live operation takes its channel\'s message, and a missing handler says so', async () => {
    const seen: unknown[] = [];
    const ops = new Operations({ handlers: {}, live: { input: (m) => { seen.push(m); } }, rateLimiter: new RateLimiter(), now: Date.now, onUnexpected: () => {} });
    const message = { type: 'input', session_id: 's_1', data: 'y' };
    await ops.call('terminalInput', { params: { id: 's_1' }, body: message, label: 'input' }, ctx('input', 'ws'));
    expect(seen).toEqual([message]);
    expect((await refusal(ops.call('terminalResize', { body: { type: 'resize', session_id: 's_1', cols: 80, rows: 24 }, label: 'resize' }, ctx('input')))).code).toBe('NOT_IMPLEMENTED');
    expect((await refusal(ops.open('subscribeTopic', { body: { type: 'subscribe', topic: 'sessions' }, label: 'sub' }, ctx('read'), {}))).code).toBe('TOPIC_UNAVAILABLE');
  });
});
