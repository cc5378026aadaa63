/**
 * `specterm serve --lan` end to end (issue 27 item 3: the QR code must carry an address a phone
 * can reach): the real daemon binds this computer's LAN address — or, on a machine without
 * one, `--lan 127.0.0.1`, which must serve the same HTTPS — with a self-signed certificate kept
 * in the state dir, prints its fingerprint, and pairs a device over HTTPS at that address.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type tls from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { makeDirs, startDaemon, stopAll, waitFor, type DaemonDirs } from './daemon/daemon-harness.js';
import { runCli } from './helpers/cli.js';
import { lanTarget } from './helpers/lan-target.js';

afterEach(stopAll, 60_000);

/** One HTTPS request that trusts only `cert`; resolves with the status, body and the server's fingerprint. */
function request(url: string, cert: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; body: string; fingerprint: string; cookie: string[] }>((resolve, reject) => {
    const req = https.request(url, { method: init.method ?? 'GET', headers: init.headers, ca: cert }, (res) => {
      const fingerprint = (res.socket as tls.TLSSocket).getPeerCertificate().fingerprint256;
      let body = '';
      res.on('data', (c) => { body += String(c); });
      res.on('end', () => resolve({ status: res.statusCode!, body, fingerprint, cookie: res.headers['set-cookie'] ?? [] }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

const printedFingerprint = (stdout: string): string => /SHA-256 fingerprint:\s+((?:[0-9A-F]{2}:){31}[0-9A-F]{2})/.exec(stdout)?.[1] ?? '';

async function startLan(dirs: DaemonDirs, args: string[]) {
  const daemon = await startDaemon(dirs, args);
  await waitFor(() => /#pair=/.test(daemon.stdout()), 10_000, 'the pairing URL');
  return daemon;
}

describe('specterm serve --lan', () => {
  it('serves HTTPS on the LAN address with a kept certificate whose fingerprint it prints, and pairs there', async () => {
    const { args, address } = lanTarget();
    const dirs = makeDirs();
    const daemon = await startLan(dirs, args);
    const out = daemon.stdout();
    const origin = new URL(daemon.url).origin;
    expect(origin).toMatch(new RegExp(`^https://${address.replace(/\./g, '\\.')}:\\d+$`));
    expect(out).toContain(`listening on ${origin}`);

    const certFile = path.join(dirs.stateDir, 'lan-cert.pem');
    expect(fs.statSync(certFile).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(dirs.stateDir, 'lan-key.pem')).mode & 0o777).toBe(0o600);
    const cert = fs.readFileSync(certFile, 'utf8');
    const x509 = new crypto.X509Certificate(cert);
    expect(x509.subjectAltName).toContain(`IP Address:${address}`);
    expect(printedFingerprint(out)).toBe(x509.fingerprint256);

    // A client that trusts exactly this certificate and checks the printed fingerprint.
    const token = fs.readFileSync(path.join(dirs.stateDir, 'admin-token'), 'utf8').trim();
    const health = await request(`${origin}/api/v1/health`, cert, { headers: { authorization: `Bearer ${token}` } });
    expect(health.status).toBe(200);
    expect(health.fingerprint).toBe(x509.fingerprint256);

    // The printed pairing URL is the phone's: redeem its code over HTTPS from that origin.
    const pairingUrl = /(https:\/\/\S+#pair=(\S+))/.exec(out);
    expect(pairingUrl?.[1]?.startsWith(`${origin}/#pair=`)).toBe(true);
    const paired = await request(`${origin}/api/v1/pair`, cert, {
      method: 'POST', headers: { 'content-type': 'application/json', origin }, body: JSON.stringify({ code: pairingUrl![2] }),
    });
    expect(paired.status, paired.body).toBe(201);
    expect(paired.cookie.join(';')).toMatch(/;\s*Secure/i);

    // The CLI on this computer trusts the kept certificate by itself.
    const ls = runCli(['ls'], { env: dirs.env });
    expect(ls.code, ls.stderr).toBe(0);
  });

  it('keeps the same certificate across restarts', async () => {
    const { args } = lanTarget();
    const dirs = makeDirs();
    const first = await startLan(dirs, args);
    const fingerprint = printedFingerprint(first.stdout());
    expect(first.stdout()).toMatch(/a new self-signed certificate/);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const second = await startLan(dirs, args);
    expect(printedFingerprint(second.stdout())).toBe(fingerprint);
    expect(second.stdout()).toMatch(/the self-signed certificate kept in/);
  });

  it('refuses an address that is not this computer\'s, and --lan with --bind or --tls-cert', () => {
    const dirs = makeDirs();
    const notOurs = runCli(['serve', '--port', '0', '--lan', '203.0.113.254'], { env: dirs.env });
    expect(notOurs.code).toBe(2);
    expect(notOurs.stderr).toMatch(/--lan 203\.0\.113\.254 is not an address of this computer; its IPv4 addresses: .*127\.0\.0\.1/);
    const both = runCli(['serve', '--port', '0', '--lan', '--bind', '127.0.0.1'], { env: dirs.env });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--lan chooses the address itself/);
    const ownCert = runCli(['serve', '--port', '0', '--lan', '--tls-cert', 'c.pem', '--tls-key', 'k.pem'], { env: dirs.env });
    expect(ownCert.code).toBe(2);
    expect(ownCert.stderr).toMatch(/--lan makes its own certificate/);
  });
});
