/**
 * Which nodes the fleet has: the presence bucket `specterm_presence` (one record per node, written
 * by its link every PRESENCE_EVERY_MS), watched so the hub always knows every node, when each
 * was last heard from and its sessions as of then — what the hub shows of a node that does not
 * answer.
 * @module
 */
import { Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { PRESENCE_EVERY_MS, type PresenceRecord } from '../nats/node-link.js';
import { PRESENCE_BUCKET } from '../nats/subjects.js';
import { NODE_NAME_PATTERN } from '../protocol/index.js';

/** A presence record older than this is a node that lost NATS or stopped. */
export const PRESENCE_STALE_MS = 3 * PRESENCE_EVERY_MS;

export class FleetPresence {
  readonly #records = new Map<string, PresenceRecord>();
  #stop: (() => void) | null = null;

  /** `onChange`: a node's new record, or null when its record was removed. */
  static async watch(nc: NatsConnection, onChange: (node: string, record: PresenceRecord | null) => void = () => {}): Promise<FleetPresence> {
    const presence = new FleetPresence();
    // The same bucket settings as the nodes': whoever links first makes it.
    const kv = await new Kvm(nc).create(PRESENCE_BUCKET, { history: 1 });
    const watcher = await kv.watch();
    presence.#stop = () => watcher.stop();
    void (async () => {
      for await (const entry of watcher) {
        const record = entry.operation === 'PUT' ? parseRecord(entry.key, entry.value) : null;
        if (record) presence.#records.set(entry.key, record);
        else presence.#records.delete(entry.key);
        onChange(entry.key, record);
      }
    })().catch(() => {});
    return presence;
  }

  /** Every node's name, sorted. */
  nodes(): string[] {
    return [...this.#records.keys()].sort();
  }

  has(node: string): boolean {
    return this.#records.has(node);
  }

  record(node: string): PresenceRecord | undefined {
    return this.#records.get(node);
  }

  close(): void {
    this.#stop?.();
  }
}

function parseRecord(key: string, bytes: Uint8Array): PresenceRecord | null {
  if (!NODE_NAME_PATTERN.test(key)) return null;
  try {
    const r = JSON.parse(new TextDecoder().decode(bytes)) as PresenceRecord;
    return r && typeof r.at === 'number' && Array.isArray(r.sessions) ? { ...r, node: key } : null;
  } catch {
    return null;
  }
}
