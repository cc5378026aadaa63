/**
 * Which daemon ("node") an object belongs to. Ids (sessions, approvals, event seqs) are unique
 * within one node; with the node they are unique across a fleet: `<node>/<id>`. A daemon
 * alone is a fleet of one, and stamps its own name on every session, approval and event.
 * @module
 */
import { z } from 'zod';

/** Lowercase letters, digits and dashes, starting with a letter or digit (a host name's first label). */
export const NODE_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;

export const NodeName = z.string().regex(NODE_NAME_PATTERN, 'a node name is 1–63 lowercase letters, digits and dashes, starting with a letter or digit (e.g. laptop, build-01)')
  .meta({ description: 'the daemon (fleet node) this belongs to; with it, ids are unique across a fleet', examples: ['laptop'] });

/** The fleet-wide reference of an object of `node`: `<node>/<id>`. */
export function fleetRef(node: string, id: string): string {
  return `${node}/${id}`;
}

/** A host name made into a node name (`My-Laptop.local` → `my-laptop`); `node` when nothing is left. */
export function nodeNameFromHost(hostname: string): string {
  const label = hostname.split('.')[0]!.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63);
  return NODE_NAME_PATTERN.test(label) ? label : 'node';
}

/**
 * What a hub (`specterm hub`) says of an object whose node did not answer: the list shows its
 * last known state, as of `since` (the node's last presence record), instead of failing.
 */
export const Unreachable = z.strictObject({
  since: z.number().int().nonnegative().meta({ description: 'when the node was last heard from (its presence record), ms since the Unix epoch' }),
}).meta({ description: 'served by a hub only: the node did not answer, so this is its last known state' });
