/**
 * A network namespace of the test's own making, joined to this one by a veth pair: a process
 * started in it (a fleet node) reaches this side only through that link, so the test can cut
 * the link — silently, nothing reset, as a real partition does — and heal it.
 * Needs root (the CI runs as root) and Debian's iproute2; names are random so runs side by side
 * never collide, and `dispose` removes the namespace and its link.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

export interface Netns {
  readonly name: string;
  /** This side's address on the link (bind what the namespace must reach here). */
  readonly hostIp: string;
  /** The namespace's address on the link. */
  readonly nsIp: string;
  /** The command prefix that runs a program inside the namespace. */
  readonly exec: string[];
  /** Takes the link down (connections stall; nothing is reset). */
  cut(): void;
  heal(): void;
  dispose(): void;
}

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });

export function makeNetns(): Netns {
  const id = randomBytes(3).toString('hex');
  const name = `st-${id}`;
  const hostLink = `sth${id}`;
  const nsLink = `stn${id}`;
  // A /30 in 10.231.0.0/16 picked at random: two runs at once get different ones.
  const block = randomBytes(2).readUInt16BE() & 0xfffc;
  const base = `10.231.${block >> 8}`;
  const hostIp = `${base}.${(block & 0xff) + 1}`;
  const nsIp = `${base}.${(block & 0xff) + 2}`;
  ip('netns', 'add', name);
  try {
    ip('link', 'add', hostLink, 'type', 'veth', 'peer', 'name', nsLink);
    ip('link', 'set', nsLink, 'netns', name);
    ip('addr', 'add', `${hostIp}/30`, 'dev', hostLink);
    ip('link', 'set', hostLink, 'up');
    ip('netns', 'exec', name, 'ip', 'addr', 'add', `${nsIp}/30`, 'dev', nsLink);
    ip('netns', 'exec', name, 'ip', 'link', 'set', nsLink, 'up');
    ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');
  } catch (error) {
    try { ip('netns', 'del', name); } catch {}
    try { ip('link', 'del', hostLink); } catch {}
    throw error;
  }
  let cut = false;
  return {
    name, hostIp, nsIp, exec: ['ip', 'netns', 'exec', name],
    // This side's end down: the namespace's end loses its carrier, packets go nowhere either way,
    // and neither side's connections are reset — they stall, as across a pulled cable.
    cut() {
      if (cut) return;
      ip('link', 'set', hostLink, 'down');
      cut = true;
    },
    heal() {
      if (!cut) return;
      ip('link', 'set', hostLink, 'up');
      cut = false;
    },
    dispose() {
      try { ip('netns', 'del', name); } catch {}
      // Deleting the namespace deletes its end of the pair, and with it this end; make sure.
      try { ip('link', 'del', hostLink); } catch {}
    },
  };
}
