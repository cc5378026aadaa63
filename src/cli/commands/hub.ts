/**
 * `specterm hub --nats <url>`: one API and dashboard for a fleet of nodes (docs/fleet.md, "The
 * hub"), in the foreground until SIGINT/SIGTERM. Its own state dir (default `<state dir>/hub`)
 * and runtime dir (`<runtime dir>/hub`), so it runs beside a `specterm serve` of the same user.
 * @module
 */
import path from 'node:path';
import { DaemonLockError } from '../../daemon/daemon-lock.js';
import { PrivatePathError, resolveRuntimeDir, resolveStateDir } from '../../server/paths.js';
import { DaemonError } from '../../daemon/errors.js';
import { NODE_NAME_PATTERN } from '../../protocol/index.js';
import { defineCommand } from '../command.js';
import { describeCommand } from '../command-table.js';
import { CliUsageError, EXIT_INTERNAL } from '../errors.js';
import { readNatsFlags } from '../nats-flags.js';

export const hubCommand = defineCommand(
  {
    ...describeCommand('hub'),
    positionals: [],
    flags: {
      nats: { type: 'string', flag: 'nats', value: 'URL', help: 'the fleet\'s NATS server (JetStream on), e.g. nats://nats.lan:4222 (required)' },
      natsCreds: { type: 'string', flag: 'nats-creds', value: 'FILE', help: 'the hub\'s NATS credentials (0600): a .creds file, an nkey seed, or JSON {"user","pass"} / {"token"}' },
      port: { type: 'number', flag: 'port', value: 'N', min: 0, help: 'port to listen on on 127.0.0.1 (default 0: a free one, printed)' },
      stateDir: { type: 'string', flag: 'state-dir', value: 'DIR', help: 'the hub\'s state dir: database, admin-token, fleet-tokens.json (default $SPECTERM_STATE_DIR/hub)' },
      name: { type: 'string', flag: 'name', value: 'NAME', help: 'the hub\'s name: its durable event consumer is named for it (default hub)' },
      noPair: { type: 'boolean', flag: 'no-pair', help: 'do not print a pairing URL for the dashboard' },
    },
    notes: [
      'Runtime dir: $SPECTERM_RUNTIME_DIR/hub (lock, state file: `SPECTERM_RUNTIME_DIR=…/hub specterm ls` talks to the hub).',
      'Exit codes: 0 stopped by a signal, 2 bad flags, 70 the hub could not start.',
    ],
  },
  async ({ flags }, io) => {
    const nats = await readNatsFlags('hub', flags);
    if (!nats) throw new CliUsageError('hub', 'a hub needs the fleet\'s NATS server: pass --nats nats://host:port', 'CLI_MISSING_ARGUMENT');
    if (flags.name !== undefined && !NODE_NAME_PATTERN.test(flags.name)) {
      throw new CliUsageError('hub', `--name ${flags.name} is not a name; use 1–63 lowercase letters, digits and dashes (e.g. hub, office-hub)`, 'CLI_BAD_VALUE');
    }
    let hub;
    try {
      const { startHub } = await import('../../serve/hub.js');
      hub = await startHub({
        runtimeDir: path.join(resolveRuntimeDir(io.env), 'hub'), stateDir: flags.stateDir ?? path.join(resolveStateDir(io.env), 'hub'),
        nats, name: flags.name, port: flags.port, log: (level, message) => io.stderr.write(`specterm hub: ${level}: ${message}\n`),
      });
    } catch (error) {
      if (!(error instanceof DaemonLockError || error instanceof DaemonError || error instanceof PrivatePathError)) throw error;
      io.stderr.write(`specterm hub: ${error.code}: ${error.message}\n`);
      return EXIT_INTERNAL;
    }
    io.stdout.write(`specterm hub: listening on ${hub.url} (fleet on ${nats.url})\n`);
    if (!flags.noPair) {
      const pairing = hub.createPairing({ deviceName: 'browser', scope: 'input' });
      io.stdout.write(`specterm hub: open the dashboard (one use, ${pairing.scope} scope, valid 10 minutes):\n  ${pairing.url}\n`);
    }
    await new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    await hub.close();
    return 0;
  },
);
