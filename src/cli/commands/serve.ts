/**
 * `specterm serve`: runs the daemon in the foreground until SIGINT/SIGTERM. Stopping it leaves
 * every agent running in the PTY host; the next `serve` re-attaches to them.
 *
 * @module
 */
import fs from 'node:fs';
// The daemon itself is loaded when serve runs: every other command starts without it.
import { DaemonLockError, DEFAULT_PORT } from '../../daemon/daemon-lock.js';
import { isLoopback, PrivatePathError, resolveRuntimeDir, resolveStateDir } from '../../server/paths.js';
import { DaemonError } from '../../daemon/errors.js';
import { NODE_NAME_PATTERN, ScopeSchema } from '../../protocol/index.js';
import { defineCommand } from '../command.js';
import { describeCommand } from '../command-table.js';
import { CliUsageError, EXIT_INTERNAL } from '../errors.js';
import { prepareLanServing, refuseLanConflicts } from '../lan-serving.js';
import { readNatsFlags } from '../nats-flags.js';

export const serveCommand = defineCommand(
  {
    ...describeCommand('serve'),
    positionals: [],
    flags: {
      port: { type: 'number', flag: 'port', value: 'N', min: 0, help: `port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)` },
      bind: { type: 'string', flag: 'bind', value: 'ADDR', help: 'address to bind (default 127.0.0.1); anything else needs --allow-remote' },
      allowRemote: { type: 'boolean', flag: 'allow-remote', help: 'allow a non-loopback --bind (use TLS: --tls-cert/--tls-key)' },
      tlsCert: { type: 'string', flag: 'tls-cert', value: 'FILE', help: 'PEM certificate: serve HTTPS/WSS' },
      tlsKey: { type: 'string', flag: 'tls-key', value: 'FILE', help: 'PEM private key for --tls-cert' },
      lan: {
        type: 'string', flag: 'lan', value: 'ADDR', bare: 'auto',
        help: 'serve HTTPS on the local network, for phones: this computer\'s LAN address (or ADDR), a self-signed certificate kept in the state dir; prints its fingerprint',
      },
      pairScope: { type: 'string', flag: 'pair-scope', value: 'SCOPE', help: 'scope of the device the printed pairing URL signs in: read, approve, input (default) or admin' },
      noPair: { type: 'boolean', flag: 'no-pair', help: 'do not print a pairing URL (browsers and phones sign in with one)' },
      nats: { type: 'string', flag: 'nats', value: 'URL', help: 'join a fleet: publish events to and take operations from this NATS server (JetStream on), e.g. nats://hub.lan:4222; a cluster\'s servers separated by commas (docs/fleet.md)' },
      natsCreds: { type: 'string', flag: 'nats-creds', value: 'FILE', help: 'the NATS credentials (0600): a .creds file, an nkey seed, or JSON {"user","pass"} / {"token"}; never put them in the URL' },
      node: { type: 'string', flag: 'node', value: 'NAME', help: 'this daemon\'s name in a fleet, stamped on its sessions, approvals and events (default: the host name; lowercase letters, digits, dashes)' },
      sessionLimit: { type: 'number', flag: 'session-limit', value: 'N', min: 1, help: 'sessions kept (running and exited) before creation is refused (default 32)' },
    },
    notes: [
      'Directories: $SPECTERM_RUNTIME_DIR (socket, state file) and $SPECTERM_STATE_DIR (database, admin-token, settings.json).',
      'One daemon per state dir: a second `serve` on the same state dir, or on the same runtime dir with another state dir, is refused with the running one\'s pid and port (DAEMON_ALREADY_RUNNING, RUNTIME_DIR_IN_USE).',
      'Exit codes: 0 stopped by a signal, 2 bad flags, 70 the daemon could not start.',
    ],
  },
  async ({ flags }, io) => {
    if (flags.lan !== undefined) refuseLanConflicts(flags);
    const bind = flags.bind ?? '127.0.0.1';
    if (!isLoopback(bind) && !flags.allowRemote) {
      throw new CliUsageError('serve', `--bind ${bind} is not a loopback address; pass --allow-remote as well (and --tls-cert/--tls-key) to expose the API beyond this machine`, 'CLI_BAD_VALUE');
    }
    if ((flags.tlsCert === undefined) !== (flags.tlsKey === undefined)) {
      throw new CliUsageError('serve', '--tls-cert and --tls-key go together; pass both PEM files', 'CLI_BAD_VALUE');
    }
    if (flags.node !== undefined && !NODE_NAME_PATTERN.test(flags.node)) {
      throw new CliUsageError('serve', `--node ${flags.node} is not a node name; use 1–63 lowercase letters, digits and dashes, starting with a letter or digit (e.g. laptop, build-01)`, 'CLI_BAD_VALUE');
    }
    const nats = await readNatsFlags('serve', flags);
    const pairScope = ScopeSchema.safeParse(flags.pairScope ?? 'input');
    if (!pairScope.success) {
      throw new CliUsageError('serve', `--pair-scope ${flags.pairScope} is not a scope; use read, approve, input or admin`, 'CLI_BAD_VALUE');
    }
    const readPem = (file: string, flag: string) => {
      try { return fs.readFileSync(file); } catch (error) {
        throw new CliUsageError('serve', `${flag} ${file} cannot be read (${(error as Error).message})`, 'CLI_BAD_VALUE');
      }
    };
    const tls = flags.tlsCert && flags.tlsKey ? { cert: readPem(flags.tlsCert, '--tls-cert'), key: readPem(flags.tlsKey, '--tls-key') } : undefined;
    let daemon;
    let lan;
    try {
      lan = flags.lan === undefined ? undefined : prepareLanServing(flags.lan, resolveStateDir(io.env));
      const [{ startDaemon }, { tuneDaemonHeap }] = await Promise.all([import('../../serve/daemon.js'), import('../../serve/daemon-heap.js')]);
      tuneDaemonHeap();
      daemon = await startDaemon({
        runtimeDir: resolveRuntimeDir(io.env), stateDir: resolveStateDir(io.env), host: lan?.address ?? bind, port: flags.port,
        allowNonLoopback: flags.allowRemote || lan !== undefined, tls: lan?.tls ?? tls,
        sessionLimit: flags.sessionLimit, node: flags.node, nats, log: (level, message) => io.stderr.write(`specterm serve: ${level}: ${message}\n`),
      });
    } catch (error) {
      // Another daemon holds the dirs, a settings file or a directory (the state dir that keeps
      // --lan's certificate included) is wrong: a refusal that says what to fix, with its code.
      if (!(error instanceof DaemonLockError || error instanceof DaemonError || error instanceof PrivatePathError)) throw error;
      io.stderr.write(`specterm serve: ${error.code}: ${error.message}\n`);
      return EXIT_INTERNAL;
    }
    io.stdout.write(`specterm serve: listening on ${daemon.url} (${daemon.manager.list().length} sessions)\n`);
    if (lan) io.stdout.write(lan.describe);
    // After a reboot (or a lost PTY host) the agents are gone but their conversations are not.
    const resumable = daemon.manager.list().filter((s) => s.resumable);
    if (resumable.length > 0) {
      io.stdout.write(`specterm serve: ${resumable.length} session(s) can be resumed on their conversation:\n`);
      for (const s of resumable) io.stdout.write(`  ${s.record.name ?? s.id} (${s.id}, ${s.spec.id}): specterm resume ${s.record.name ?? s.id}\n`);
    }
    if (!flags.noPair) {
      // The code rides in the URL fragment, which browsers never send: it stays out of every log.
      const pairing = daemon.createPairing({ deviceName: 'browser', scope: pairScope.data });
      io.stdout.write(`specterm serve: open the dashboard (one use, ${pairing.scope} scope, valid 10 minutes):\n  ${pairing.url}\n`);
      const { phonePairingText } = await import('../../server/pairing-qr.js');
      const phone = phonePairingText(pairing.url);
      if ('noQr' in phone) io.stderr.write(`specterm serve: ${phone.noQr}\n`);
      else if (io.stdout.isTTY) io.stdout.write(`${phone.qr}\n`);
    }
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await daemon.close();
    return 0;
  },
);
