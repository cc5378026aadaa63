#!/usr/bin/env node
/**
 * `npm start` (after the build): the daemon with one demo-agent session, and the dashboard's
 * pairing URL + its QR code. Everything lives in a private temp dir that Ctrl-C removes, with
 * the daemon, the PTY host and the agent (see ./start-daemon.mjs for why not the user's dirs).
 *
 *   node scripts/start.mjs [--port N]     (default 0: a free port; the URL says which)
 */
import { renderQrForTerminal } from '../dist/server/pairing-qr.js';
import { startDemoDaemon } from './start-daemon.mjs';

function portFromArgs(argv) {
  const i = argv.indexOf('--port');
  if (i < 0) return 0;
  const port = Number(argv[i + 1]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`npm start: --port ${argv[i + 1] ?? ''} is not a port; give 0 (a free one) to 65535\n`);
    process.exit(2);
  }
  return port;
}

const daemon = await startDemoDaemon({ port: portFromArgs(process.argv.slice(2)), log: (text) => process.stderr.write(text) });
let stopping = false;
const stop = async (signal) => {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`\nnpm start: ${signal}: stopping the daemon and the demo agent…\n`);
  await daemon.stop();
  process.stdout.write('npm start: stopped; the temp state is removed\n');
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
daemon.exited.then(({ code, signal }) => { if (!stopping) { process.stderr.write(`npm start: the daemon exited (${code ?? signal}); stopping\n`); void daemon.stop().then(() => process.exit(1)); } });

try {
  const id = await daemon.createDemoSession('demo');
  const pairingUrl = await daemon.createPairing('browser', 'admin');
  process.stdout.write([
    `npm start: the daemon listens on ${daemon.url} (state in ${daemon.root}, removed on Ctrl-C)`,
    `npm start: demo-agent session ${id} ("demo") is running; type "run the tests" in it for an approval`,
    'npm start: open the dashboard (one use, admin scope, valid 10 minutes):',
    `  ${pairingUrl}`,
    '',
  ].join('\n'));
  process.stdout.write(renderQrForTerminal(pairingUrl) + '\n');
  process.stdout.write('npm start: Ctrl-C stops it\n');
} catch (error) {
  process.stderr.write(`npm start: ${error.message}\n`);
  await daemon.stop();
  process.exit(1);
}
