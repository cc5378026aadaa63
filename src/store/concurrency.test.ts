import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test/helpers/temp-store.js';
import { MIGRATIONS } from './migrations.js';
import { openStore, openStoreWith } from './open-store.js';
import type { Store } from './store.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const T0 = Date.now();

let tmp: ReturnType<typeof makeTempDir>;
let children: ChildProcessWithoutNullStreams[];
let opened: Store[];
beforeEach(() => {
  tmp = makeTempDir();
  children = [];
  opened = [];
});
afterEach(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const store of opened) store.close();
  tmp.cleanup();
});

function open(): Store {
  const store = openStore(tmp.dbPath);
  opened.push(store);
  return store;
}

/** Runs a CommonJS script in another Node process (its own SQLite connection), from the repo root. */
function runNode(script: string, args: string[] = []): { child: ChildProcessWithoutNullStreams; line: (match: RegExp) => Promise<string>; exit: Promise<number | null> } {
  const child = spawn(process.execPath, ['-e', script, ...args], { cwd: REPO });
  children.push(child);
  let out = '';
  let err = '';
  const waiters: Array<{ match: RegExp; resolve: (l: string) => void }> = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (const w of [...waiters]) {
      const line = out.split('\n').find((l) => w.match.test(l));
      if (line !== undefined) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { err += chunk; });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const line = (match: RegExp): Promise<string> => new Promise((resolve, reject) => {
    const found = out.split('\n').find((l) => match.test(l));
    if (found !== undefined) return resolve(found);
    waiters.push({ match, resolve });
    void exit.then((code) => reject(new Error(`child exited (${code}) before printing ${match}: ${err}`)));
  });
  return { child, line, exit };
}

const HOLD_WRITE_LOCK = `
const Database = require('better-sqlite3');
const db = new Database(process.argv[1]);
db.exec('BEGIN IMMEDIATE');
console.log('locked');
setTimeout(() => { db.exec('COMMIT'); db.close(); console.log('released'); }, Number(process.argv[2]));
`;

describe('WAL concurrency', () => {
  it('lets a reader keep its snapshot while the store commits', () => {
    const store = open();
    store.sessions.insert({ id: 's', cwd: '/', createdAt: T0 });
    const reader = new Database(tmp.dbPath, { readonly: true });
    const count = reader.prepare('SELECT count(*) AS n FROM state_changes');
    reader.exec('BEGIN');
    expect(count.get()).toEqual({ n: 0 });
    store.stateChanges.insert({ sessionId: 's', t: T0, state: 'idle', status: 'idle' });
    expect(count.get()).toEqual({ n: 0 });
    reader.exec('COMMIT');
    expect(count.get()).toEqual({ n: 1 });
    reader.close();
  });

  it('serves a reader in another process throughout a stream of writes, never busy', async () => {
    const store = open();
    store.sessions.insert({ id: 's', cwd: '/', createdAt: T0 });
    const total = 3000;
    const reader = runNode(`
      const Database = require('better-sqlite3');
      const db = new Database(process.argv[1], { readonly: true });
      const count = db.prepare('SELECT count(*) AS n FROM state_changes');
      console.log('ready');
      let reads = 0, errors = 0, last = 0, monotonic = true;
      const seen = new Set();
      const deadline = Date.now() + 60000;
      while (last < ${total} && Date.now() < deadline) {
        try { const n = count.get().n; if (n < last) monotonic = false; last = n; seen.add(n); reads++; }
        catch (e) { errors++; console.error(e.code); }
      }
      console.log(JSON.stringify({ reads, errors, last, monotonic, distinct: seen.size }));
    `, [tmp.dbPath]);
    await reader.line(/^ready$/);
    for (let batch = 0; batch < total / 10; batch += 1) {
      store.transaction(() => {
        for (let i = 0; i < 10; i += 1) store.stateChanges.insert({ sessionId: 's', t: T0 + batch, state: 'generating', status: 'generating' });
      });
      // Yield now and then so the reader's reads interleave with commits rather than all following them.
      if (batch % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const report = JSON.parse(await reader.line(/^\{/)) as { reads: number; errors: number; last: number; monotonic: boolean; distinct: number };
    expect(report).toMatchObject({ errors: 0, last: total, monotonic: true });
    expect(report.distinct).toBeGreaterThan(2);
  }, 90_000);

  it('waits out another connection\'s write lock instead of failing (busy timeout)', async () => {
    const store = open();
    const holder = runNode(HOLD_WRITE_LOCK, [tmp.dbPath, '400']);
    await holder.line(/^locked$/);
    const started = Date.now();
    store.audit.insert({ t: T0, who: 'admin', action: 'test', outcome: 'ok' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(store.audit.page().items).toHaveLength(1);
  }, 30_000);

  it('reports a lock held through a migration as STORE_OPEN_FAILED and moves nothing aside', async () => {
    open().close();
    opened.pop();
    const before = fs.readFileSync(tmp.dbPath);
    const holder = runNode(HOLD_WRITE_LOCK, [tmp.dbPath, '5000']);
    await holder.line(/^locked$/);
    const later = { version: MIGRATIONS.length + 1, name: 'test: later', up: (db: Database.Database) => db.exec('CREATE TABLE later (x)') };
    expect(() => openStoreWith(tmp.dbPath, { busyTimeoutMs: 200 }, [...MIGRATIONS, later]))
      .toThrow(expect.objectContaining({ code: 'STORE_OPEN_FAILED', message: expect.stringContaining('no other specterm daemon holds it') }));
    expect(fs.readdirSync(tmp.dir).filter((name) => name.includes('.corrupt-'))).toEqual([]);
    holder.child.kill('SIGKILL');
    await holder.exit;
    expect(fs.readFileSync(tmp.dbPath).equals(before)).toBe(true);
  }, 30_000);

  it('keeps every commit of a process killed with SIGKILL (a daemon crash)', async () => {
    const dist = path.join(REPO, 'dist', 'store', 'index.js');
    expect(fs.existsSync(dist), `${dist} is missing: run "npm run build" first`).toBe(true);
    const writer = runNode(`
      import(require('node:url').pathToFileURL(process.argv[2]).href).then(({ openStore }) => {
        const store = openStore(process.argv[1]);
        store.sessions.insert({ id: 'crash', cwd: '/', createdAt: Date.now() });
        for (let i = 0; i < 50; i += 1) store.messages.enqueue({ sessionId: 'crash', idempotencyKey: 'k' + i, text: 'm' + i, at: Date.now() });
        console.log('committed');
        setInterval(() => {}, 1000);
      });
    `, [tmp.dbPath, dist]);
    await writer.line(/^committed$/);
    writer.child.kill('SIGKILL');
    await writer.exit;
    expect(fs.existsSync(`${tmp.dbPath}-wal`)).toBe(true);
    const store = open();
    expect(store.notice).toBeNull();
    expect(store.messages.page({ sessionId: 'crash' }).items).toHaveLength(50);
    expect(store.messages.enqueue({ sessionId: 'crash', idempotencyKey: 'k7', text: 'm7', at: Date.now() }).isDuplicate).toBe(true);
  }, 30_000);
});
