/**
 * A read that events ask for again and again (a session page reads its session on each event of
 * its topic). Reads run one at a time, and the calls made during one collapse into a single read
 * after it: a burst of events costs two reads, not one each, and answers can no longer land out
 * of order — an older read finishing last would show a state the session has left.
 * @module
 */

/**
 * Wraps `read` (which reports its own failures: a rejection is dropped here). The promise a call
 * returns settles once a read that started after the call has ended.
 */
export function latestRead(read: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  const loop = async (): Promise<void> => {
    do {
      again = false;
      await read().catch(() => undefined);
    } while (again);
  };
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = loop().finally(() => { running = null; });
    return running;
  };
}
