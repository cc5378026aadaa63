import type os from 'node:os';
import { describe, expect, it } from 'vitest';
import { CliUsageError } from './errors.js';
import { chooseLanAddress } from './lan-address.js';

type Table = ReturnType<typeof os.networkInterfaces>;

const v4 = (address: string, internal = false): os.NetworkInterfaceInfo =>
  ({ address, netmask: '255.255.255.0', family: 'IPv4', mac: '02:00:00:00:00:01', internal, cidr: `${address}/24` });
const v6 = (address: string): os.NetworkInterfaceInfo =>
  ({ address, netmask: 'ffff:ffff:ffff:ffff::', family: 'IPv6', mac: '02:00:00:00:00:01', internal: false, cidr: `${address}/64`, scopeid: 0 });

const LOOPBACK_ONLY: Table = { lo: [v4('127.0.0.1', true)] };

function refusal(fn: () => unknown): CliUsageError {
  try { fn(); } catch (error) { if (error instanceof CliUsageError) return error; throw error; }
  throw new Error('expected a CliUsageError');
}

describe('chooseLanAddress', () => {
  it('picks the IPv4 address of the network card, not loopback, IPv6 or link-local', () => {
    const table: Table = { lo: [v4('127.0.0.1', true)], eth0: [v6('fe80::1'), v4('169.254.3.4'), v4('192.168.1.20')] };
    expect(chooseLanAddress(table)).toEqual({ address: '192.168.1.20', others: [] });
  });

  it('prefers a private address and a real card over a container bridge, and names the others', () => {
    const table: Table = { docker0: [v4('172.17.0.1')], eth1: [v4('203.0.113.7')], wlan0: [v4('10.0.0.8')], 'br-1a2b': [v4('172.18.0.1')] };
    expect(chooseLanAddress(table)).toEqual({ address: '10.0.0.8', others: ['203.0.113.7', '172.17.0.1', '172.18.0.1'] });
  });

  it('refuses with CLI_NO_LAN_ADDRESS when the machine has no network address', () => {
    const error = refusal(() => chooseLanAddress(LOOPBACK_ONLY));
    expect(error.code).toBe('CLI_NO_LAN_ADDRESS');
    expect(error.message).toMatch(/no address on the local network/);
    expect(error.message).toMatch(/--lan <address>/);
  });

  it('takes an address the person names when this machine has it, loopback included', () => {
    const table: Table = { lo: [v4('127.0.0.1', true)], eth0: [v4('192.168.1.20'), v4('192.168.1.21')] };
    expect(chooseLanAddress(table, '192.168.1.21')).toEqual({ address: '192.168.1.21', others: [] });
    expect(chooseLanAddress(table, '127.0.0.1')).toEqual({ address: '127.0.0.1', others: [] });
  });

  it('refuses a named address this machine does not have, listing the ones it has', () => {
    const error = refusal(() => chooseLanAddress({ eth0: [v4('192.168.1.20')] }, '192.168.1.99'));
    expect(error.code).toBe('CLI_BAD_VALUE');
    expect(error.message).toBe('--lan 192.168.1.99 is not an address of this computer; its IPv4 addresses: 192.168.1.20');
  });

  it('refuses a named address that is not IPv4', () => {
    for (const bad of ['fe80::1', 'my-laptop', '']) {
      const error = refusal(() => chooseLanAddress({ eth0: [v4('192.168.1.20'), v6('fe80::1')] }, bad));
      expect(error.code).toBe('CLI_BAD_VALUE');
      expect(error.message).toMatch(/needs an IPv4 address such as 192\.168\.1\.20/);
    }
  });
});
