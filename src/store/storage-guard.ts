/**
 * One place where the store meets a full disk: every method of a table object runs through
 * {@link withStorageFull}, so SQLite's `SQLITE_FULL` from any write — an insert, an update, a
 * token's last-used time, a commit — leaves the store as a `StorageFullError` naming the database's
 * directory, whatever table it came from (issue 24, item 7). SQLite has already rolled that
 * statement or transaction back, so nothing is half-written and the next write, once there is
 * room, simply succeeds.
 *
 * @module
 */
import { withStorageFull } from '../fs/storage-full.js';

/**
 * `table` with each method wrapped. Methods run on the table itself (not the proxy), so its
 * `#private` fields keep working; other properties read through unchanged.
 */
export function guardStorage<T extends object>(table: T, dir: string): T {
  return new Proxy(table, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => withStorageFull(dir, () => (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
}
