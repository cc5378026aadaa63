#!/usr/bin/env node
/**
 * `npm start`: the daemon with one demo-agent session, and the dashboard's pairing URL. It builds
 * first only when dist/ is older than the sources (quietly: the build's figures are for
 * developers), then prints what a first-time user needs, the URL first. Everything lives in a
 * private temp dir that Ctrl-C removes, with the daemon, the PTY host and the agent (see
 * ./start-daemon.mjs for why not the user's dirs).
 *
 *   node scripts/start.mjs [--port N]     (default 0: a free port; the URL says which)
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { staleBuildReason } from './build-freshness.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));

const stale = staleBuildReason(REPO);
if (stale !== null) {
  process.stdout.write(`npm start: building first (${stale}; about 30 s)…\n`);
  const build = spawnSync('npm', ['run', 'build'], { cwd: REPO, encoding: 'utf8' });
  if (build.status !== 0) {
    process.stderr.write(`${build.stdout}${build.stderr}npm start: the build failed (above); fix it and run npm start again\n`);
    process.exit(1);
  }
}
const { phonePairingText } = await import('../dist/server/pairing-qr.js');
const { startDemoDaemon } = await import('./start-daemon.mjs');

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

// The daemon's info lines (files it created in the temp dir) are not for a first-time user; its warnings and errors are.
let partial = '';
const daemonLog = (text) => {
  const lines = (partial + text).split('\n');
  partial = lines.pop();
  for (const line of lines) if (!/^specterm serve: info: /.test(line)) process.stderr.write(`${line}\n`);
};
const daemon = await startDemoDaemon({ port: portFromArgs(process.argv.slice(2)), log: daemonLog });
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
    'npm start: open the dashboard (the link works once, signs in with admin scope, and expires in 10 minutes):',
    `  ${pairingUrl}`,
    `npm start: a demo-agent session "demo" (${id}) is running in it; type "run the tests" there for an approval.`,
    '',
  ].join('\n'));
  const phone = phonePairingText(pairingUrl);
  process.stdout.write('noQr' in phone ? `npm start: ${phone.noQr}.\n` : `${phone.qr}\n`);
  process.stdout.write([
    'npm start: to use the specterm CLI with this daemon, in another terminal:',
    `  export SPECTERM_RUNTIME_DIR=${daemon.runtimeDir} SPECTERM_STATE_DIR=${daemon.stateDir}`,
    '  node bin/specterm.js ls',
    `npm start: everything lives in ${daemon.root}, removed when it stops. Ctrl-C stops it.`,
    '',
  ].join('\n'));
} catch (error) {
  process.stderr.write(`npm start: ${error.message}\n`);
  await daemon.stop();
  process.exit(1);
}
