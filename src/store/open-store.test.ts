import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test/helpers/temp-store.js';
import { StoreError } from './errors.js';
import { MIGRATIONS, migrate, type Migration } from './migrations.js';
import { openStore, openStoreWith } from './open-store.js';
import type { Store } from './store.js';

const FIXED_NOW = Date.UTC(2026, 11, 1, 12, 0, 0, 0);
const LATEST = MIGRATIONS.length;

let tmp: ReturnType<typeof makeTempDir>;
let opened: Store[];
beforeEach(() => {
  tmp = makeTempDir();
  opened = [];
});
afterEach(() => {
  for (const store of opened) store.close();
  tmp.cleanup();
});

function open(options: Parameters<typeof openStore>[1] = {}, migrations: readonly Migration[] = MIGRATIONS): Store {
  const store = openStoreWith(tmp.dbPath, { now: () => FIXED_NOW, ...options }, migrations);
  opened.push(store);
  return store;
}

function addSession(store: Store, id = 's1'): void {
  store.sessions.insert({ id, cwd: '/tmp', createdAt: FIXED_NOW, args: ['--x'], labels: { team: 'a' } });
}

/** Opens the file at the path, expects it moved aside with `code`, and checks the fresh store works. */
function expectMovedAside(code: string, original: Buffer | null): string {
  const store = open();
  expect(store.notice).not.toBeNull();
  expect(store.notice!.code).toBe(code);
  const moved = store.notice!.movedAside;
  expect(moved).toBe(`${tmp.dbPath}.corrupt-2026-12-01T12-00-00-000Z`);
  expect(store.notice!.reason).toContain(tmp.dbPath);
  if (original) expect(fs.readFileSync(moved).equals(original)).toBe(true);
  addSession(store);
  expect(store.sessions.get('s1')?.labels).toEqual({ team: 'a' });
  expect(store.schemaVersion).toBe(LATEST);
  return moved;
}

describe('openStore', () => {
  it('creates a private WAL database with foreign keys at the latest schema version', () => {
    const store = open();
    expect(store.notice).toBeNull();
    expect(store.schemaVersion).toBe(LATEST);
    addSession(store);
    expect(fs.statSync(tmp.dbPath).mode & 0o777).toBe(0o600);
    expect(fs.statSync(`${tmp.dbPath}-wal`).mode & 0o777).toBe(0o600);
    const peek = new Database(tmp.dbPath, { readonly: true });
    expect(peek.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(peek.pragma('user_version', { simple: true })).toBe(LATEST);
    peek.close();
    // foreign_keys is per connection; the store's own connection must refuse an orphan row.
    expect(() => store.stateChanges.insert({ sessionId: 'nope', t: 1, state: 'idle', status: 'idle' }))
      .toThrow(expect.objectContaining({ code: 'STORE_UNKNOWN_SESSION' }));
  });

  it('creates a missing state directory with mode 0700', () => {
    const nested = path.join(tmp.dir, 'state', 'specterm', 'specterm.db');
    const store = openStore(nested, { now: () => FIXED_NOW });
    opened.push(store);
    expect(fs.statSync(path.dirname(nested)).mode & 0o777).toBe(0o700);
  });

  it('keeps every row across close and reopen (a daemon restart)', () => {
    const first = open();
    addSession(first);
    // Recent enough for the default retention, which prunes on every open.
    first.stateChanges.insert({ sessionId: 's1', t: FIXED_NOW - 5, state: 'idle', status: 'idle' });
    first.close();
    const second = open();
    expect(second.notice).toBeNull();
    expect(second.sessions.get('s1')?.args).toEqual(['--x']);
    expect(second.stateChanges.page({ sessionId: 's1' }).items.map((c) => c.t)).toEqual([FIXED_NOW - 5]);
  });

  it('treats an empty file as a new database', () => {
    fs.writeFileSync(tmp.dbPath, '');
    const store = open();
    expect(store.notice).toBeNull();
    addSession(store);
  });

  it('moves a file of garbage bytes aside unchanged and starts fresh', () => {
    const garbage = Buffer.alloc(8192);
    for (let i = 0; i < garbage.length; i += 1) garbage[i] = (i * 7919 + 13) % 251;
    fs.writeFileSync(tmp.dbPath, garbage);
    expectMovedAside('STORE_CORRUPT', garbage);
  });

  it('moves a truncated database aside unchanged and starts fresh', () => {
    const store = open();
    addSession(store);
    for (let i = 0; i < 3000; i += 1) store.stateChanges.insert({ sessionId: 's1', t: i, state: `state-${i}`, status: 'generating' });
    store.close();
    const whole = fs.readFileSync(tmp.dbPath);
    expect(whole.length).toBeGreaterThan(64 * 1024);
    const truncated = whole.subarray(0, Math.floor(whole.length / 2) + 100);
    fs.writeFileSync(tmp.dbPath, truncated);
    expectMovedAside('STORE_CORRUPT', truncated);
  });

  it('moves a database of a newer schema version aside unchanged', () => {
    const newer = new Database(tmp.dbPath);
    newer.exec('CREATE TABLE future (x TEXT); INSERT INTO future VALUES (\'kept\')');
    newer.pragma(`user_version = ${LATEST + 5}`);
    newer.close();
    const original = fs.readFileSync(tmp.dbPath);
    const moved = expectMovedAside('STORE_NEWER_SCHEMA', original);
    const check = new Database(moved, { readonly: true });
    expect(check.prepare('SELECT x FROM future').get()).toEqual({ x: 'kept' });
    check.close();
  });

  it('moves a directory at the path aside with its contents', () => {
    fs.mkdirSync(tmp.dbPath);
    fs.writeFileSync(path.join(tmp.dbPath, 'keep.txt'), 'precious');
    const moved = expectMovedAside('STORE_UNREADABLE', null);
    expect(fs.readFileSync(path.join(moved, 'keep.txt'), 'utf8')).toBe('precious');
  });

  it('moves the -wal and -shm companions along under matching names', () => {
    fs.writeFileSync(tmp.dbPath, Buffer.from('not sqlite at all, just text that fills more than a header '.repeat(4)));
    fs.writeFileSync(`${tmp.dbPath}-wal`, 'wal bytes');
    fs.writeFileSync(`${tmp.dbPath}-shm`, 'shm bytes');
    const moved = expectMovedAside('STORE_CORRUPT', null);
    expect(fs.readFileSync(`${moved}-wal`, 'utf8')).toBe('wal bytes');
    expect(fs.readFileSync(`${moved}-shm`, 'utf8')).toBe('shm bytes');
  });

  it('moves a -wal left without its database aside instead of letting the fresh database reset it', () => {
    const first = open();
    addSession(first, 'from-the-lost-file');
    const wal = fs.readFileSync(`${tmp.dbPath}-wal`);
    first.close();
    opened.pop();
    fs.rmSync(tmp.dbPath);
    fs.writeFileSync(`${tmp.dbPath}-wal`, wal);
    const store = open();
    expect(store.notice?.code).toBe('STORE_CORRUPT');
    expect(store.notice?.reason).toContain('-wal');
    expect(fs.readFileSync(`${store.notice!.movedAside}-wal`).equals(wal)).toBe(true);
    expect(fs.existsSync(store.notice!.movedAside)).toBe(false);
    expect(store.sessions.list()).toEqual([]);
  });

  it('never overwrites an earlier moved-aside copy', () => {
    fs.writeFileSync(tmp.dbPath, 'first garbage that is long enough to not be a header......................................................');
    const first = open().notice!.movedAside;
    opened.pop()!.close();
    fs.rmSync(tmp.dbPath);
    fs.rmSync(`${tmp.dbPath}-wal`, { force: true });
    fs.rmSync(`${tmp.dbPath}-shm`, { force: true });
    fs.writeFileSync(tmp.dbPath, 'second garbage, also long enough to not be a header.....................................................');
    const second = open().notice!.movedAside;
    expect(second).not.toBe(first);
    expect(fs.readFileSync(first, 'utf8')).toMatch(/^first/);
    expect(fs.readFileSync(second, 'utf8')).toMatch(/^second/);
  });

  it('rolls back a failing migration, moves the untouched file aside and starts fresh', () => {
    const v1 = open();
    addSession(v1, 'old-1');
    addSession(v1, 'old-2');
    v1.close();
    opened.pop();
    const original = fs.readFileSync(tmp.dbPath);
    // Fails on the old rows only (two sessions share a cwd), as a real step that meets
    // unexpected data would; on the fresh file it succeeds.
    const failing: Migration = {
      version: LATEST + 1,
      name: 'test: one session per cwd',
      up: (db) => {
        db.exec('ALTER TABLE sessions ADD COLUMN half_done TEXT');
        db.exec('CREATE UNIQUE INDEX one_per_cwd ON sessions (cwd)');
      },
    };
    const store = open({}, [...MIGRATIONS, failing]);
    expect(store.notice?.code).toBe('STORE_MIGRATION_FAILED');
    expect(store.notice?.reason).toContain('UNIQUE constraint failed');
    const moved = store.notice!.movedAside;
    expect(fs.readFileSync(moved).equals(original)).toBe(true);
    const check = new Database(moved, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(LATEST);
    expect(check.prepare('SELECT id FROM sessions ORDER BY id').all()).toEqual([{ id: 'old-1' }, { id: 'old-2' }]);
    expect(check.prepare('SELECT name FROM pragma_table_info(\'sessions\') WHERE name = \'half_done\'').all()).toEqual([]);
    check.close();
    expect(store.schemaVersion).toBe(LATEST + 1);
  });

  it('fails with STORE_OPEN_FAILED and moves nothing when a fresh database cannot be created either', () => {
    fs.writeFileSync(path.join(tmp.dir, 'blocker'), 'a file where a directory should be');
    const dbPath = path.join(tmp.dir, 'blocker', 'specterm.db');
    const error = captureError(() => openStore(dbPath));
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('STORE_OPEN_FAILED');
    expect((error as StoreError).message).toContain(dbPath);
    expect(fs.readFileSync(path.join(tmp.dir, 'blocker'), 'utf8')).toBe('a file where a directory should be');
  });
});

describe('migrations', () => {
  it('brings an empty file to the latest version in one transaction per step', () => {
    const seen: number[] = [];
    const traced = MIGRATIONS.map((m) => ({ ...m, up: (db: Database.Database) => { seen.push(db.inTransaction ? m.version : -1); m.up(db); } }));
    const store = open({}, traced);
    expect(seen).toEqual(MIGRATIONS.map((m) => m.version));
    expect(store.schemaVersion).toBe(LATEST);
  });

  it('upgrades a database from each earlier version and keeps its rows', () => {
    const extra: Migration = { version: LATEST + 1, name: 'test: a later step', up: (db) => db.exec('ALTER TABLE sessions ADD COLUMN note TEXT') };
    const all = [...MIGRATIONS, extra];
    for (let from = 1; from < all.length; from += 1) {
      // The older file is made with SQL of that version: today's Store speaks the latest schema.
      const older = new Database(tmp.dbPath);
      expect(migrate(older, all.slice(0, from), tmp.dbPath)).toBe(from);
      older.prepare("INSERT INTO sessions (id, cwd, args, labels, env_keys, created_at) VALUES (?, '/tmp', '[]', '{}', '[]', ?)").run(`from-${from}`, FIXED_NOW);
      older.close();
      const upgraded = open({}, all);
      expect(upgraded.notice).toBeNull();
      expect(upgraded.schemaVersion).toBe(all.length);
      expect(upgraded.sessions.get(`from-${from}`)?.cwd).toBe('/tmp');
      upgraded.close();
      fs.rmSync(tmp.dbPath);
    }
  });

  it('refuses a migration list with a gap', () => {
    const gap: Migration = { version: LATEST + 2, name: 'gap', up: () => {} };
    expect(() => open({}, [...MIGRATIONS, gap])).toThrow(/not contiguous/);
  });
});

function captureError(run: () => unknown): unknown {
  try {
    run();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
}
