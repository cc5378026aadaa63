/**
 * The address `serve --lan` tests bind: this machine's own LAN address when it has one (chosen
 * by `--lan` alone, as a user's would be), else loopback named with `--lan 127.0.0.1`, which
 * must serve the same HTTPS. Nothing is skipped on a machine without a network.
 */
import os from 'node:os';
import { chooseLanAddress } from '../../src/cli/lan-address.js';

/** The `--lan` arguments to pass and the address the daemon will then listen on. */
export function lanTarget(): { args: string[]; address: string } {
  try {
    return { args: ['--lan'], address: chooseLanAddress(os.networkInterfaces()).address };
  } catch {
    return { args: ['--lan', '127.0.0.1'], address: '127.0.0.1' };
  }
}
