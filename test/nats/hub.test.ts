/**
 * A fleet of two real nodes (`specterm serve --nats --node alpha|beta`, the Demo Agent as their
 * CLI) and a real hub (`specterm hub --nats`) on one real `nats-server` with JetStream: the hub
 * lists both nodes' sessions, forwards operations to the node that owns the object (with the
 * caller's token: the node audits the person), starts sessions on a chosen node, issues tokens
 * every node accepts by NATS, resumes its event stream after a restart with nothing lost or
 * twice, and lists a node that stopped answering with its last known sessions.
 */
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { WS_PATH, WS_SUBPROTOCOL } from '../../src/protocol/index.js';
import { ClientError, DaemonClient } from '../../src/client/index.js';
import { startNatsServer, type NatsServer } from '../helpers/nats-server.js';
import { makeDirs, startDaemon, stopAll, waitFor, type DaemonDirs, type RunningDaemon } from '../daemon/daemon-harness.js';
import { readEvents, startHub, stopHubs, type HubEvent, type RunningHub } from './hub-harness.js';
import { PushMessage } from '../../src/protocol/index.js';
import { decryptPushMessage, makeBrowserKeys, startPushService, verifyVapid } from '../browser/push-service-fixture.js';

const WAIT_MS = 60_000;
let nats: NatsServer;
let nc: NatsConnection;
const dirs: Record<'alpha' | 'beta' | 'hub', DaemonDirs> = {} as never;
const nodes: Record<'alpha' | 'beta', RunningDaemon> = {} as never;
let hub: RunningHub;
const ids = { alpha: '', beta: '' };
let pushService: Awaited<ReturnType<typeof startPushService>>;

async function op(node: string, request: Record<string, unknown>): Promise<any> {
  return (await nc.request(`specterm.${node}.ops`, JSON.stringify(request), { timeout: 30_000 })).json();
}

async function refusal(call: Promise<unknown>): Promise<ClientError> {
  const error = await call.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(ClientError);
  return error as ClientError;
}

function audit(node: 'alpha' | 'beta', action: string): Array<{ who: string; session_id: string; via: string }> {
  const db = new Database(path.join(dirs[node].stateDir, 'specterm.db'), { readonly: true });
  try {
    const rows = db.prepare('SELECT who, session_id, detail FROM audit WHERE action = ?').all(action) as Array<{ who: string; session_id: string; detail: string }>;
    return rows.map((r) => ({ who: r.who, session_id: r.session_id, via: JSON.parse(r.detail).via as string }));
  } finally {
    db.close();
  }
}

function lastSeqOf(node: 'alpha' | 'beta'): number {
  const db = new Database(path.join(dirs[node].stateDir, 'specterm.db'), { readonly: true });
  try {
    return (db.prepare('SELECT max(seq) AS seq FROM events').get() as { seq: number | null }).seq ?? 0;
  } finally {
    db.close();
  }
}

const idle = (client: DaemonClient, id: string, what: string) => waitFor(async () => (await client.call('getSession', { params: { id } })).state?.id === 'idle', WAIT_MS, what);

beforeAll(async () => {
  nats = await startNatsServer();
  for (const name of ['alpha', 'beta', 'hub'] as const) dirs[name] = makeDirs();
  [nodes.alpha, nodes.beta] = await Promise.all((['alpha', 'beta'] as const).map((name) => startDaemon(dirs[name], ['--nats', nats.url, '--node', name])));
  // The hub pushes to a push service on loopback (the hub's own settings.json allows it).
  pushService = await startPushService();
  fs.mkdirSync(path.join(dirs.hub.stateDir, 'hub'), { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(dirs.hub.stateDir, 'hub', 'settings.json'), JSON.stringify({ push: { allow_loopback_http: true } }));
  hub = await startHub(dirs.hub, nats.url);
  nc = await connect({ servers: nats.url });
  // Both nodes have announced themselves (presence) before the tests ask the hub.
  await waitFor(async () => {
    try { return (await hub.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs.alpha.work, node: 'nowhere' } })) && false; } catch (error) {
      return /'alpha'.*'beta'/.test((error as Error).message);
    }
  }, WAIT_MS, 'both nodes known to the hub');
}, 180_000);

afterAll(async () => {
  for (const node of Object.values(nodes)) if (node?.child.pid) try { process.kill(node.child.pid, 'SIGCONT'); } catch {}
  await nc?.close().catch(() => {});
  await pushService?.close();
  await stopHubs();
  await stopAll();
  await nats?.dispose();
}, 90_000);

describe('specterm hub', () => {
  it('starts sessions on a chosen node and lists both nodes\' sessions, each with its node', async () => {
    for (const node of ['alpha', 'beta'] as const) {
      const created = await hub.client.call('createSession', { body: { spec: 'demo-agent', cwd: dirs[node].work, name: `on-${node}`, cols: 100, rows: 30, node } });
      expect(created.node).toBe(node);
      ids[node] = created.id;
      // It runs on that node, and only there.
      expect((await nodes[node].client.call('listSessions')).sessions.map((s) => s.id)).toEqual([created.id]);
    }
    await Promise.all((['alpha', 'beta'] as const).map((node) => idle(hub.client, ids[node], `${node}'s session idle through the hub`)));
    const listed = (await hub.client.call('listSessions')).sessions.map((s) => [s.node, s.id, s.unreachable]);
    expect(listed).toEqual([['alpha', ids.alpha, undefined], ['beta', ids.beta, undefined]]);
    // A fleet id names the node explicitly.
    expect((await hub.client.call('getSession', { params: { id: `beta_${ids.beta}` } })).node).toBe('beta');
  }, 180_000);

  it('refuses bad input with clear errors: no node, an unknown node, a malformed body, an id nobody has', async () => {
    const body = { spec: 'demo-agent', cwd: dirs.alpha.work };
    const missing = await refusal(hub.client.call('createSession', { body }));
    expect([missing.code, missing.status]).toEqual(['NODE_UNKNOWN', 422]);
    expect(missing.message).toMatch(/say which node.*'alpha', 'beta'/);
    const unknown = await refusal(hub.client.call('createSession', { body: { ...body, node: 'gamma' } }));
    expect([unknown.code, unknown.message]).toEqual(['NODE_UNKNOWN', expect.stringMatching(/no node 'gamma'; the nodes are 'alpha', 'beta'/)]);
    const malformed = await refusal(hub.client.call('createSession', { body: { ...body, node: 'alpha', cols: 'wide' as never } }));
    expect([malformed.code, malformed.status]).toEqual(['VALIDATION_FAILED', 422]);
    const nobody = await refusal(hub.client.call('getSession', { params: { id: 's_nobody' } }));
    expect([nobody.code, nobody.status]).toEqual(['SESSION_NOT_FOUND', 404]);
    expect(nobody.message).toMatch(/no node of this fleet \(alpha, beta\) has the session 's_nobody'/);
    const push = await refusal(hub.client.call('subscribePush', { body: { endpoint: 'http://192.0.2.1/push/x', keys: { p256dh: makeBrowserKeys().p256dh, auth: 'A'.repeat(22) } } }));
    expect([push.code, push.message]).toEqual(['PUSH_ENDPOINT_REFUSED', expect.stringMatching(/endpoint must be an https: URL/)]);
    const noRecording = await refusal(hub.client.call('getRecordingCast', { params: { name: 'nowhere-1' } }));
    expect([noRecording.code, noRecording.status]).toEqual(['RECORDING_NOT_FOUND', 404]);
    expect(noRecording.message).toMatch(/no node of this fleet \(alpha, beta\) has the recording 'nowhere-1'; list them with GET \/api\/v1\/recordings/);
    const emptySearch = await refusal(hub.client.call('searchTranscripts', { query: { q: 'x', limit: 0 } }));
    expect([emptySearch.code, emptySearch.status]).toEqual(['VALIDATION_FAILED', 422]);
    // The command itself: no NATS, or credentials in the URL, is a usage error (exit 2) saying what to do.
    const bin = path.resolve('bin/specterm.js');
    const noNats = spawnSync(process.execPath, [bin, 'hub'], { env: dirs.hub.env, encoding: 'utf8', timeout: 30_000 });
    expect([noNats.status, noNats.stderr]).toEqual([2, expect.stringContaining('a hub needs the fleet\'s NATS server: pass --nats nats://host:port')]);
    const secretUrl = spawnSync(process.execPath, [bin, 'hub', '--nats', 'nats://me:pw@127.0.0.1:4222'], { env: dirs.hub.env, encoding: 'utf8', timeout: 30_000 });
    expect([secretUrl.status, secretUrl.stderr]).toEqual([2, expect.stringContaining('carries credentials; a command line is visible to every process')]);
    expect(secretUrl.stderr).not.toContain('pw');
    // A node refuses a create meant for another node.
    expect(await op('alpha', { op: 'createSession', token: hub.admin, body: { ...body, node: 'beta' } })).toMatchObject({ ok: false, error: { code: 'NODE_UNKNOWN' } });
  }, 60_000);

  it('serves the fleet\'s events on the WebSocket topics the dashboard reads, each with its node', async () => {
    const socket = new WebSocket(`${hub.url.replace('http', 'ws')}${WS_PATH}`, [WS_SUBPROTOCOL], { headers: { authorization: `Bearer ${hub.admin}` } });
    const messages: Array<{ type: string; topic?: string; code?: string; event?: { node?: string; session_id: string; type: string; seq: number } }> = [];
    socket.on('message', (data) => messages.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
    try {
      socket.send(JSON.stringify({ type: 'subscribe', topic: 'sessions', since: 0 }));
      socket.send(JSON.stringify({ type: 'subscribe', topic: `session/alpha_${ids.alpha}`, since: 0 }));
      const created = (topic: string) => messages.filter((m) => m.topic === topic && m.event?.type === 'session.created').map((m) => m.event!.node);
      await waitFor(() => created('sessions').length === 2 && created(`session/alpha_${ids.alpha}`).length === 1, WAIT_MS, () => `both nodes' sessions on the topics (got ${JSON.stringify(messages.slice(-3))})`);
      expect(created('sessions').sort()).toEqual(['alpha', 'beta']);
      // The hub's list says where its own numbering is: every event it sent so far is at or below.
      const seen = Math.max(...messages.filter((m) => m.topic === 'sessions' && m.event).map((m) => m.event!.seq));
      expect((await hub.client.call('listSessions')).event_seq).toBeGreaterThanOrEqual(seen);
      expect(new Set(messages.filter((m) => m.topic === `session/alpha_${ids.alpha}` && m.event).map((m) => `${m.event?.node}/${m.event?.session_id}`))).toEqual(new Set([`alpha/${ids.alpha}`]));
      // Terminals of nodes through the hub: test/nats/hub-terminal.test.ts.
    } finally {
      socket.close();
    }
  }, 120_000);

  it('sends a message to a node\'s session through the hub and reads its answer and transcript; the node audits the caller', async () => {
    const outcome = await hub.client.call('sendMessage', { params: { id: ids.beta }, body: { text: 'hello', wait: 'idle', timeout_ms: 45_000 } });
    expect(outcome.delivery).toBe('idle');
    const transcript = await hub.client.call('getTranscript', { params: { id: ids.beta } });
    expect(JSON.stringify(transcript.transcript)).toContain('hello');
    expect(audit('beta', 'sendMessage')).toEqual([{ who: 'hub-admin', session_id: ids.beta, via: 'nats' }]);
    expect(audit('alpha', 'sendMessage')).toEqual([]);
  }, 120_000);

  it('searches every node\'s transcripts through the hub, each hit with its node, newest first', async () => {
    await hub.client.call('sendMessage', { params: { id: ids.alpha }, body: { text: 'hello from alpha', wait: 'idle', timeout_ms: 45_000 } });
    const { hits, unanswered } = await hub.client.call('searchTranscripts', { query: { q: 'hello' } });
    expect(unanswered).toBeUndefined();
    const sessions = new Set(hits.map((h) => `${h.node}_${h.session_id}`));
    expect(sessions).toEqual(new Set([`alpha_${ids.alpha}`, `beta_${ids.beta}`]));
    const times = hits.map((h) => h.at ?? 0);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // Each node alone finds only its own.
    expect(new Set((await nodes.beta.client.call('searchTranscripts', { query: { q: 'hello' } })).hits.map((h) => h.session_id))).toEqual(new Set([ids.beta]));
    // The limit holds across the fleet.
    expect((await hub.client.call('searchTranscripts', { query: { q: 'hello', limit: 1 } })).hits).toHaveLength(1);
  }, 120_000);

  it('records a node\'s session through the hub, lists every node\'s recordings with their node and replays one', async () => {
    for (const node of ['alpha', 'beta'] as const) {
      const started = await hub.client.call('startRecording', { params: { id: ids[node] }, body: { name: `rec-${node}` } });
      expect(started.active).toBe(true);
    }
    await hub.client.call('sendMessage', { params: { id: ids.beta }, body: { text: 'recorded words', wait: 'idle', timeout_ms: 45_000 } });
    for (const node of ['alpha', 'beta'] as const) await hub.client.call('stopRecording', { params: { id: ids[node] } });
    const listed = (await hub.client.call('listRecordings')).recordings.map((r) => [r.node, r.name, r.active]);
    expect(listed).toEqual(expect.arrayContaining([['alpha', 'rec-alpha', false], ['beta', 'rec-beta', false]]));
    // By its name and by its fleet id, answered by the node that holds it.
    const cast = await hub.client.call('getRecordingCast', { params: { name: 'rec-beta' } });
    expect(cast.content).toContain('recorded words');
    expect((await hub.client.call('getRecordingCast', { params: { name: 'alpha_rec-alpha' } })).name).toBe('rec-alpha');
    const timeline = await hub.client.call('getRecordingTimeline', { params: { name: 'rec-beta' } });
    expect(timeline.states.map((s) => s.state)).toContain('idle');
  }, 120_000);

  it('lists an approval raised on node beta and answers it through the hub; beta audits the answer; a phone subscribed on the hub is woken for it', async () => {
    await idle(hub.client, ids.beta, 'beta idle before the approval');
    const phone = makeBrowserKeys();
    const { public_key: publicKey } = await hub.client.call('getPushKey');
    await hub.client.call('subscribePush', { body: { endpoint: `${pushService.url}/push/hub-phone`, keys: { p256dh: phone.p256dh, auth: phone.auth } } });
    expect((await hub.client.call('listPushSubscriptions')).subscriptions.map((s) => s.endpoint_origin)).toEqual([pushService.url]);
    const pushed = () => pushService.requests.filter((r) => r.path === '/push/hub-phone').map((r) => ({ r, message: PushMessage.parse(JSON.parse(decryptPushMessage(r.body, phone))) }));
    await hub.client.call('sendMessage', { params: { id: ids.beta }, body: { text: 'run the tests', wait: 'started', timeout_ms: 45_000 } });
    const approval = await waitFor(async () => (await hub.client.call('listApprovals')).approvals.find((a) => a.session_id === ids.beta), WAIT_MS, 'the approval on the hub');
    expect(approval.node).toBe('beta');
    const answered = await hub.client.call('answerApproval', { params: { id: approval.id }, body: { button: approval.buttons[0]!.index, fingerprint: approval.fingerprint } });
    expect(answered.approval_id).toBe(approval.id);
    await idle(hub.client, ids.beta, 'beta idle after the approved turn');
    expect(audit('beta', 'answerApproval')).toEqual([{ who: 'hub-admin', session_id: approval.id, via: 'nats' }]);

    // The hub woke the phone for beta's approval and for the turn's end, by the session's name and
    // node, opening it by its fleet id — signed with the hub's own VAPID key.
    await waitFor(() => pushed().some((p) => p.message.type === 'turn.finished'), WAIT_MS, 'the turn\'s end pushed by the hub');
    const [asked, finished] = [pushed().find((p) => p.message.type === 'approval.needed')!, pushed().find((p) => p.message.type === 'turn.finished')!];
    expect(asked.message).toMatchObject({ session_id: `beta_${ids.beta}`, url: `/sessions/beta_${ids.beta}`, title: 'on-beta on beta: approval needed', body: expect.stringMatching(/^Bash command\n1 Yes/) });
    expect(finished.message).toMatchObject({ session_id: `beta_${ids.beta}`, title: 'on-beta on beta: turn finished' });
    expect(verifyVapid(asked.r.headers.authorization).k).toBe(publicKey);
    expect(pushed().filter((p) => p.message.type === 'approval.needed')).toHaveLength(1);
    // The pushed address opens beta's session on the hub.
    expect((await hub.client.call('getSession', { params: { id: asked.message.session_id } })).id).toBe(ids.beta);
  }, 180_000);

  it('issues tokens every node accepts by NATS with their scope; a revoked or random token is refused', async () => {
    const made = await hub.client.call('createToken', { body: { name: 'phone', scope: 'read' } });
    for (const node of ['alpha', 'beta']) {
      const listed = await op(node, { op: 'listSessions', token: made.token });
      expect([listed.ok, listed.answer?.sessions.map((s: { node: string }) => s.node)]).toEqual([true, [node]]);
      expect(await op(node, { op: 'sendKeys', token: made.token, params: { id: ids.alpha }, body: { data: 'x' } })).toMatchObject({ ok: false, error: { code: 'SCOPE_INSUFFICIENT' } });
    }
    const phone = new DaemonClient(hub.url, made.token);
    expect((await phone.call('listSessions')).sessions.map((s) => s.node)).toEqual(['alpha', 'beta']);
    expect((await refusal(phone.call('sendKeys', { params: { id: ids.alpha }, body: { data: 'x' } }))).code).toBe('SCOPE_INSUFFICIENT');
    // A node's HTTP API keeps its own tokens: the fleet's reach it through the hub or NATS.
    expect((await refusal(new DaemonClient(nodes.alpha.url, made.token).call('listSessions'))).code).toBe('AUTH_INVALID');
    await hub.client.call('revokeToken', { params: { id: made.record.id } });
    await waitFor(async () => (await op('alpha', { op: 'listSessions', token: made.token })).error?.code === 'AUTH_INVALID', WAIT_MS, 'the revoked token refused by alpha');
    expect(await op('beta', { op: 'listSessions', token: made.token })).toMatchObject({ ok: false, error: { code: 'AUTH_INVALID' } });
    expect((await refusal(phone.call('listSessions'))).code).toBe('AUTH_INVALID');
    expect(await op('beta', { op: 'listSessions', token: 'r4nd0m-t0ken-the-fleet-never-issued-0000000' })).toMatchObject({ ok: false, error: { code: 'AUTH_INVALID' } });
  }, 120_000);

  it('resumes its event stream after a restart mid-stream: every event of both nodes once, in order, with the hub\'s own seq', async () => {
    await idle(nodes.alpha.client, ids.alpha, 'alpha idle');
    await nodes.alpha.client.call('sendMessage', { params: { id: ids.alpha }, body: { text: 'hello' } });
    await hub.stop();
    // While the hub is away the node goes on: its turn ends, its events wait on the stream.
    await idle(nodes.alpha.client, ids.alpha, 'alpha idle again while the hub is down');
    // A hub that died after NATS delivered it events and before it stored them: they are
    // delivered again, and nothing after them may overtake them.
    const consumer = await jetstream(nc).consumers.get('SPECTERM_EVENTS', 'specterm-hub-hub');
    const taken = await consumer.fetch({ max_messages: 5, expires: 5_000 });
    let unacked = 0;
    for await (const m of taken) { unacked += m.redelivered ? 0 : 1; }
    expect(unacked).toBeGreaterThan(0);
    hub = await startHub(dirs.hub, nats.url);
    const want = { alpha: lastSeqOf('alpha'), beta: lastSeqOf('beta') };
    const events = await readEvents(hub, 0, (seen) => (['alpha', 'beta'] as const).every((n) => seen.some((e) => e.node === n && e.node_seq === want[n])), WAIT_MS);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    for (const node of ['alpha', 'beta'] as const) {
      const seqs = events.filter((e: HubEvent) => e.node === node).map((e) => e.node_seq);
      expect(seqs.slice(0, want[node])).toEqual(Array.from({ length: want[node] }, (_, i) => i + 1));
    }
    expect(events.filter((e) => e.node === undefined)).toEqual([]);
  }, 180_000);

  it('reads the stream again from its start when its consumer is gone, and stores nothing twice', async () => {
    await hub.stop();
    await (await jetstreamManager(nc)).consumers.delete('SPECTERM_EVENTS', 'specterm-hub-hub');
    hub = await startHub(dirs.hub, nats.url);
    const want = { alpha: lastSeqOf('alpha'), beta: lastSeqOf('beta') };
    const events = await readEvents(hub, 0, (seen) => (['alpha', 'beta'] as const).every((n) => seen.some((e) => e.node === n && e.node_seq === want[n])), WAIT_MS);
    for (const node of ['alpha', 'beta'] as const) {
      expect(events.filter((e) => e.node === node).map((e) => e.node_seq)).toEqual(Array.from({ length: want[node] }, (_, i) => i + 1));
    }
    // One session's events by its fleet id: that node's session only.
    const one = await readEvents(hub, 0, (seen) => seen.some((e) => e.node_seq === want.beta), WAIT_MS, `beta_${ids.beta}`);
    expect(new Set(one.map((e) => `${e.node}/${e.session_id}`))).toEqual(new Set([`beta/${ids.beta}`]));
  }, 180_000);

  it('lists a node that stops answering as unreachable, with its last known sessions', async () => {
    await hub.client.call('listSessions');
    process.kill(nodes.beta.child.pid!, 'SIGSTOP');
    try {
      const before = Date.now();
      const sessions = (await hub.client.call('listSessions')).sessions;
      expect(sessions.map((s) => [s.node, s.id, s.unreachable === undefined])).toEqual([['alpha', ids.alpha, true], ['beta', ids.beta, false]]);
      const beta = sessions.find((s) => s.node === 'beta')!;
      expect(beta.unreachable!.since).toBeLessThanOrEqual(before);
      // The last known session as the hub last listed it, not a bare placeholder.
      expect(beta.name).toBe('on-beta');
      const lost = await refusal(hub.client.call('getSession', { params: { id: ids.beta } }));
      expect([lost.code, lost.status]).toEqual(['NODE_UNREACHABLE', 503]);
      // A search says which node it could not search, rather than finding less in silence.
      const search = await hub.client.call('searchTranscripts', { query: { q: 'hello' } });
      expect(search.hits.every((h) => h.node === 'alpha')).toBe(true);
      expect(search.unanswered?.map((u) => u.node)).toEqual(['beta']);
    } finally {
      process.kill(nodes.beta.child.pid!, 'SIGCONT');
    }
    await waitFor(async () => (await hub.client.call('listSessions')).sessions.every((s) => s.unreachable === undefined), WAIT_MS, 'beta back');
  }, 120_000);

  it('lists every node as unreachable while NATS is down, and catches up on the events it missed once NATS is back', async () => {
    await hub.client.call('listSessions');
    await nats.stop();
    try {
      const sessions = (await hub.client.call('listSessions')).sessions;
      expect(sessions.map((s) => [s.node, s.id, s.unreachable !== undefined])).toEqual([['alpha', ids.alpha, true], ['beta', ids.beta, true]]);
      // The nodes go on: alpha's turn while NATS is down is published when it returns.
      await nodes.alpha.client.call('sendMessage', { params: { id: ids.alpha }, body: { text: 'hello', wait: 'idle', timeout_ms: 45_000 } });
    } finally {
      await nats.start();
    }
    await waitFor(async () => (await hub.client.call('listSessions')).sessions.every((s) => s.unreachable === undefined), WAIT_MS, 'the nodes reachable again');
    const want = lastSeqOf('alpha');
    const events = await readEvents(hub, 0, (seen) => seen.some((e) => e.node === 'alpha' && e.node_seq === want), WAIT_MS);
    expect(events.filter((e) => e.node === 'alpha').map((e) => e.node_seq)).toEqual(Array.from({ length: want }, (_, i) => i + 1));
  }, 180_000);

  it('never confuses two nodes\' equal ids: a shared bare id is refused, the fleet id names one', async () => {
    // A third node (only its presence record: it never answers) that has a session with alpha's id.
    const kv = await new Kvm(nc).open('specterm_presence');
    await kv.put('gamma', JSON.stringify({ node: 'gamma', version: '0.0.0', at: Date.now(), backlog: 0, sessions: [{ id: ids.alpha, name: 'twin', lifecycle: 'running', state: 'idle', status: 'idle', waiting: false }] }));
    try {
      const twin = await waitFor(async () => {
        const error = await hub.client.call('getSession', { params: { id: ids.alpha } }).then(() => null, (e: ClientError) => e);
        return error?.code === 'SESSION_AMBIGUOUS' ? error : undefined;
      }, WAIT_MS, 'the shared id refused');
      expect([twin.status, twin.message]).toEqual([409, expect.stringContaining(`alpha_${ids.alpha} or gamma_${ids.alpha}`)]);
      expect((await hub.client.call('getSession', { params: { id: `alpha_${ids.alpha}` } })).node).toBe('alpha');
      expect((await refusal(hub.client.call('getSession', { params: { id: `gamma_${ids.alpha}` } }))).code).toBe('NODE_UNREACHABLE');
      const listed = (await hub.client.call('listSessions')).sessions.filter((s) => s.id === ids.alpha).map((s) => [s.node, s.unreachable === undefined]);
      expect(listed).toEqual([['alpha', true], ['gamma', false]]);
    } finally {
      await kv.delete('gamma');
    }
  }, 120_000);
});
