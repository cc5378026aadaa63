import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureLanCertificate } from './lan-certificate.js';

const DAY_MS = 86_400_000;
const dirs: string[] = [];
afterEach(() => { for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true }); });

function stateDir(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-lan-cert-'));
  dirs.push(root);
  return path.join(root, 'state');
}

const NOW = new Date('2026-12-06T12:00:00Z');
const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe('ensureLanCertificate', () => {
  it('creates a private certificate and key for the address and the host name', () => {
    const dir = stateDir();
    const made = ensureLanCertificate(dir, { address: '192.168.1.20', hostname: 'box', now: NOW });
    expect(made.status).toBe('created');
    expect(mode(made.certFile)).toBe(0o600);
    expect(mode(made.keyFile)).toBe(0o600);
    expect(mode(dir)).toBe(0o700);
    const x509 = new crypto.X509Certificate(fs.readFileSync(made.certFile));
    expect(x509.subjectAltName).toBe('IP Address:192.168.1.20, DNS:box');
    expect(x509.fingerprint256).toBe(made.fingerprint256);
    expect(x509.checkPrivateKey(crypto.createPrivateKey(fs.readFileSync(made.keyFile)))).toBe(true);
    // A phone whose clock is a little behind still accepts it; Apple's 398-day limit is kept.
    expect(Date.parse(x509.validFrom)).toBeLessThan(NOW.getTime());
    expect(Date.parse(x509.validTo) - NOW.getTime()).toBeLessThanOrEqual(398 * DAY_MS);
  });

  it('reuses the same certificate on later starts, so the fingerprint a person checked stays valid', () => {
    const dir = stateDir();
    const first = ensureLanCertificate(dir, { address: '192.168.1.20', hostname: 'box', now: NOW });
    const later = ensureLanCertificate(dir, { address: '192.168.1.20', hostname: 'box', now: new Date(NOW.getTime() + 100 * DAY_MS) });
    expect(later.status).toBe('kept');
    expect(later.fingerprint256).toBe(first.fingerprint256);
    expect(later.cert).toBe(first.cert);
  });

  it('makes a new one when the address or the host name changed', () => {
    const dir = stateDir();
    const first = ensureLanCertificate(dir, { address: '192.168.1.20', hostname: 'box', now: NOW });
    const moved = ensureLanCertificate(dir, { address: '10.0.0.8', hostname: 'box', now: NOW });
    expect(moved.status).toBe('replaced');
    expect(moved.fingerprint256).not.toBe(first.fingerprint256);
    expect(new crypto.X509Certificate(moved.cert).subjectAltName).toBe('IP Address:10.0.0.8, DNS:box');
    expect(ensureLanCertificate(dir, { address: '10.0.0.8', hostname: 'other', now: NOW }).status).toBe('replaced');
  });

  it('makes a new one within 30 days of the old one expiring', () => {
    const dir = stateDir();
    ensureLanCertificate(dir, { address: '192.168.1.20', hostname: 'box', now: NOW });
    expect(ensureLanCertificate(dir, { address: '192.168.1.20', hostname: 'box', now: new Date(NOW.getTime() + 370 * DAY_MS) }).status).toBe('replaced');
  });

  it('replaces a key someone else could read, and a pair that does not match', () => {
    const dir = stateDir();
    const first = ensureLanCertificate(dir, { address: '192.168.1.20', hostname: 'box', now: NOW });
    fs.chmodSync(first.keyFile, 0o644);
    const second = ensureLanCertificate(dir, { address: '192.168.1.20', hostname: 'box', now: NOW });
    expect(second.status).toBe('replaced');
    expect(mode(second.keyFile)).toBe(0o600);
    fs.writeFileSync(second.keyFile, crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    expect(ensureLanCertificate(dir, { address: '192.168.1.20', hostname: 'box', now: NOW }).status).toBe('replaced');
    fs.writeFileSync(second.certFile, 'not a certificate', { mode: 0o600 });
    expect(ensureLanCertificate(dir, { address: '192.168.1.20', hostname: 'box', now: NOW }).status).toBe('replaced');
  });

  it('leaves a host name that is not a DNS name out of the certificate', () => {
    const made = ensureLanCertificate(stateDir(), { address: '192.168.1.20', hostname: 'my box_ü', now: NOW });
    expect(new crypto.X509Certificate(made.cert).subjectAltName).toBe('IP Address:192.168.1.20');
  });
});
