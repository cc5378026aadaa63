#!/usr/bin/env node
/**
 * `npm start`: the daemon with one demo-agent session, and the dashboard's pairing URL. It builds
 * first only when dist/ is older than the sources (quietly: the build's figures are for
 * developers), then prints what a first-time user needs, the URL first. Everything lives in a
 * private temp dir that Ctrl-C removes, with the daemon, the PTY host and the agent (see
 * ./start-daemon.mjs for why not the user's dirs).
 *
 *   node scripts/start.mjs [--port N] [--lan [ADDR]]
 *
 * --port: default 0, a free port (the URL says which). --lan: serve HTTPS on this computer's
 * LAN address (or ADDR) with a self-signed certificate, so a phone can open the link and scan
 * the QR code (`specterm serve --lan`, docs/dashboard.md).
 */
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
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
const { LAN_CERT_FILE } = await import('../dist/client/index.js');

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

/** `--lan` alone: `auto` (this computer's LAN address); `--lan ADDR`: that address; absent: undefined. */
function lanFromArgs(argv) {
  const i = argv.indexOf('--lan');
  if (i < 0) return undefined;
  const next = argv[i + 1];
  return next === undefined || next.startsWith('-') ? 'auto' : next;
}

// The daemon's info lines (files it created in the temp dir) are not for a first-time user; its warnings and errors are.
let partial = '';
const daemonLog = (text) => {
  const lines = (partial + text).split('\n');
  partial = lines.pop();
  for (const line of lines) if (!/^specterm serve: info: /.test(line)) process.stderr.write(`${line}\n`);
};
const args = process.argv.slice(2);
const lan = lanFromArgs(args);
let daemon;
try {
  daemon = await startDemoDaemon({ port: portFromArgs(args), lan, log: daemonLog });
} catch (error) {
  // serve's own refusal (a bad --lan address, a port in use) is already on stderr, above.
  const said = error.exitCode !== undefined ? `the daemon did not start (specterm serve exited with ${error.exitCode}; why is above)` : error.message;
  process.stderr.write(`npm start: ${said}\n`);
  process.exit(error.exitCode === 2 ? 2 : 1);
}
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
  if (lan !== undefined) {
    const { fingerprint256 } = new X509Certificate(fs.readFileSync(path.join(daemon.stateDir, LAN_CERT_FILE)));
    process.stdout.write([
      'npm start: it serves HTTPS with a self-signed certificate; a browser warns about it: accept it only if its SHA-256 fingerprint is',
      `  ${fingerprint256}`,
      '',
    ].join('\n'));
  }
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
