/**
 * Any thrown value as the one error type, for every transport: a `SpectermError` as it is, a
 * full disk as STORAGE_FULL (with the directory to free), anything else as INTERNAL — whose own
 * message may hold paths or secrets, so it goes to `onUnexpected` (the daemon log), never to
 * the caller.
 * @module
 */
import { asStorageFull } from '../fs/storage-full.js';
import { SpectermError } from '../protocol/index.js';

export function toSpectermError(error: unknown, onUnexpected?: (error: unknown) => void): SpectermError {
  if (error instanceof SpectermError) return error;
  const full = asStorageFull(error);
  if (full) return new SpectermError({ code: 'STORAGE_FULL', detail: full.message, extensions: { dir: full.dir } });
  onUnexpected?.(error);
  return new SpectermError({
    code: 'INTERNAL',
    detail: 'the daemon failed while answering; its log has the details. Retry, and report it if it persists.',
  });
}
