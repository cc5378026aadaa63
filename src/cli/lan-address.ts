/**
 * Which address `specterm serve --lan` binds: one a phone on the same network can reach. A pure
 * function of the interface table (`os.networkInterfaces()`), so the choice is tested on
 * fabricated tables whatever network the test machine has.
 *
 * @module
 */
import net from 'node:net';
import type os from 'node:os';
import { CliUsageError } from './errors.js';

/** The address chosen and the other candidates (for a "choose another with --lan" hint). */
export interface LanAddressChoice {
  address: string;
  others: string[];
}

/** Container and VM bridges: non-internal, but a phone on the Wi-Fi cannot reach them. */
const VIRTUAL_INTERFACE = /^(docker|br-|veth|virbr|vmnet|vboxnet|cni|flannel|podman|lxc|lxd)/;

/** RFC 1918: the addresses home and office networks hand out. */
function isPrivate(address: string): boolean {
  const [a, b] = address.split('.').map(Number) as [number, number];
  return a === 10 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31);
}

/**
 * The LAN IPv4 address to serve on. Without `requested`: the non-internal IPv4 addresses,
 * link-local (169.254.x.x, no DHCP) left out, a real card's before a bridge's and a private one
 * before others. With `requested`: that address, if this computer has it — loopback included,
 * so `--lan 127.0.0.1` serves the same HTTPS on a machine without a network.
 *
 * @throws CliUsageError `CLI_NO_LAN_ADDRESS` when there is no candidate, `CLI_BAD_VALUE` when
 *   `requested` is not IPv4 or not this computer's.
 */
export function chooseLanAddress(interfaces: ReturnType<typeof os.networkInterfaces>, requested?: string): LanAddressChoice {
  const all = Object.entries(interfaces).flatMap(([name, infos]) => (infos ?? [])
    .filter((info) => info.family === 'IPv4')
    .map((info) => ({ name, address: info.address, internal: info.internal })));
  if (requested !== undefined) {
    if (!net.isIPv4(requested)) {
      throw new CliUsageError('serve', `--lan needs an IPv4 address such as 192.168.1.20, got "${requested}"; or give --lan alone to pick this computer's`, 'CLI_BAD_VALUE');
    }
    if (!all.some((a) => a.address === requested)) {
      throw new CliUsageError('serve', `--lan ${requested} is not an address of this computer; its IPv4 addresses: ${all.map((a) => a.address).join(', ') || 'none'}`, 'CLI_BAD_VALUE');
    }
    return { address: requested, others: [] };
  }
  const rank = (a: { name: string; address: string }) => (VIRTUAL_INTERFACE.test(a.name) ? 2 : 0) + (isPrivate(a.address) ? 0 : 1);
  const candidates = all
    .filter((a) => !a.internal && !a.address.startsWith('169.254.'))
    .sort((x, y) => rank(x) - rank(y))
    .map((a) => a.address);
  const [address, ...others] = candidates;
  if (address === undefined) {
    throw new CliUsageError('serve', 'this computer has no address on the local network (only loopback): connect it to the network the phone is on, or name an address with --lan <address>', 'CLI_NO_LAN_ADDRESS');
  }
  return { address, others };
}
