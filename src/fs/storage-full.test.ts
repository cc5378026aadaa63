import { describe, expect, it } from 'vitest';
import { asStorageFull, isStorageFull, StorageFullError, withStorageFull } from './storage-full.js';

/** The shape Node gives a failed write: an Error with errno code and, from open/mkdir, the path. */
function fsError(code: string, path?: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: failed`), { code, ...(path ? { path } : {}) });
}

describe('a full disk', () => {
  it('is SQLite\'s SQLITE_FULL or the kernel\'s ENOSPC / EDQUOT, nothing else', () => {
    expect(['SQLITE_FULL', 'ENOSPC', 'EDQUOT'].map((c) => isStorageFull(fsError(c)))).toEqual([true, true, true]);
    expect(['SQLITE_BUSY', 'EACCES', 'SQLITE_IOERR'].some((c) => isStorageFull(fsError(c)))).toBe(false);
    expect(isStorageFull(null)).toBe(false);
  });

  it('becomes a StorageFullError naming the directory to free space in', () => {
    const thrown = (() => { try { withStorageFull('/var/state', () => { throw fsError('SQLITE_FULL'); }); } catch (e) { return e; } })();
    expect(thrown).toBeInstanceOf(StorageFullError);
    expect((thrown as StorageFullError).dir).toBe('/var/state');
    expect((thrown as Error).message).toMatch(/^no space left on the disk that holds \/var\/state.*free some space there/);
    const other = fsError('EACCES');
    expect(() => withStorageFull('/x', () => { throw other; })).toThrow(other);
  });

  it('is found in a file error with a path, also wrapped as a cause, and not in one without', () => {
    expect(asStorageFull(fsError('ENOSPC', '/state/recordings/a.cast'))?.dir).toBe('/state/recordings');
    const wrapped = new Error('cannot write to recording b.cast', { cause: fsError('ENOSPC', '/state/r/b.cast') }); // as the recorder wraps it
    expect(asStorageFull(wrapped)?.dir).toBe('/state/r');
    const known = new StorageFullError('/s', null);
    expect(asStorageFull(known)).toBe(known);
    expect(asStorageFull(fsError('ENOSPC'))).toBeUndefined();
    expect(asStorageFull(fsError('EACCES', '/s/x'))).toBeUndefined();
  });
});
