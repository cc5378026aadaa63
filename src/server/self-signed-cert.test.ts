import crypto from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { createSelfSignedCertificate } from './self-signed-cert.js';

const NOT_BEFORE = new Date('2026-12-06T10:00:00Z');
const NOT_AFTER = new Date('2028-01-07T10:00:00Z');

describe('createSelfSignedCertificate', () => {
  const made = createSelfSignedCertificate({ commonName: 'specterm on box', ipAddresses: ['192.168.1.20'], dnsNames: ['box', 'box.local'], notBefore: NOT_BEFORE, notAfter: NOT_AFTER });
  const x509 = new crypto.X509Certificate(made.cert);

  it('makes a certificate Node parses, with the subject, SAN and validity asked for', () => {
    expect(x509.subject).toBe('CN=specterm on box');
    expect(x509.issuer).toBe('CN=specterm on box');
    expect(x509.subjectAltName).toBe('IP Address:192.168.1.20, DNS:box, DNS:box.local');
    expect(new Date(x509.validFrom).toISOString()).toBe(NOT_BEFORE.toISOString());
    expect(new Date(x509.validTo).toISOString()).toBe(NOT_AFTER.toISOString());
    expect(x509.ca).toBe(false);
    expect(x509.checkIP('192.168.1.20')).toBe('192.168.1.20');
    expect(x509.checkHost('box')).toBe('box');
  });

  it('is signed by its own key, the P-256 key it returns', () => {
    const key = crypto.createPrivateKey(made.key);
    expect(key.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(x509.verify(crypto.createPublicKey(key))).toBe(true);
    expect(x509.checkPrivateKey(key)).toBe(true);
    const other = crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    expect(x509.verify(other.publicKey)).toBe(false);
  });

  it('reports the SHA-256 fingerprint as browsers show it', () => {
    expect(made.fingerprint256).toBe(x509.fingerprint256);
    expect(made.fingerprint256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });

  it('draws a new key and serial number each time', () => {
    const again = createSelfSignedCertificate({ commonName: 'specterm on box', ipAddresses: ['192.168.1.20'], notBefore: NOT_BEFORE, notAfter: NOT_AFTER });
    const second = new crypto.X509Certificate(again.cert);
    expect(second.serialNumber).not.toBe(x509.serialNumber);
    expect(again.fingerprint256).not.toBe(made.fingerprint256);
  });

  it('writes dates from 2050 on as GeneralizedTime', () => {
    const late = createSelfSignedCertificate({ commonName: 'late', ipAddresses: ['10.0.0.1'], notBefore: new Date('2049-06-01T00:00:00Z'), notAfter: new Date('2051-02-03T04:05:06Z') });
    const cert = new crypto.X509Certificate(late.cert);
    expect(new Date(cert.validTo).toISOString()).toBe('2051-02-03T04:05:06.000Z');
    expect(cert.verify(cert.publicKey)).toBe(true);
  });

  it('refuses an IP address that is not IPv4 or IPv6', () => {
    expect(() => createSelfSignedCertificate({ commonName: 'x', ipAddresses: ['not-an-ip'], notBefore: NOT_BEFORE, notAfter: NOT_AFTER })).toThrow(/not an IP address/);
  });

  it('encodes an IPv6 address in the SAN', () => {
    const v6 = createSelfSignedCertificate({ commonName: 'v6', ipAddresses: ['fe80::1:2', '::1'], notBefore: NOT_BEFORE, notAfter: NOT_AFTER });
    expect(new crypto.X509Certificate(v6.cert).subjectAltName).toBe('IP Address:FE80:0:0:0:0:0:1:2, IP Address:0:0:0:0:0:0:0:1');
  });
});

describe('a TLS server with the certificate', () => {
  let server: https.Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => { if (server) server.close(() => resolve()); else resolve(); });
    server = undefined;
  });

  /** An HTTPS server on 127.0.0.1 answering `ok`, with a certificate made now, valid a day. */
  async function serveWithNewCertificate(): Promise<{ made: ReturnType<typeof createSelfSignedCertificate>; port: number }> {
    const now = Date.now();
    const made = createSelfSignedCertificate({ commonName: 'specterm test', ipAddresses: ['127.0.0.1'], notBefore: new Date(now - 60_000), notAfter: new Date(now + 86_400_000) });
    const listening = https.createServer({ cert: made.cert, key: made.key }, (_req, res) => res.end('ok'));
    server = listening;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    return { made, port: (listening.address() as AddressInfo).port };
  }

  it('completes a real handshake with a client that pins its fingerprint', async () => {
    const { made, port } = await serveWithNewCertificate();
    // Trusting exactly this certificate (as a phone does once the person accepts it), and
    // checking the fingerprint the daemon printed.
    const seen = await new Promise<{ body: string; fingerprint: string; authorized: boolean }>((resolve, reject) => {
      const req = https.get({ host: '127.0.0.1', port, path: '/', ca: made.cert }, (res) => {
        const socket = res.socket as tls.TLSSocket;
        let body = '';
        res.on('data', (c) => { body += String(c); });
        res.on('end', () => resolve({ body, fingerprint: socket.getPeerCertificate().fingerprint256, authorized: socket.authorized }));
      });
      req.on('error', reject);
    });
    expect(seen).toEqual({ body: 'ok', fingerprint: made.fingerprint256, authorized: true });
  });

  it('is refused by a client that trusts only the system CAs', async () => {
    const { port } = await serveWithNewCertificate();
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => {
      https.get({ host: '127.0.0.1', port, path: '/' }, () => resolve(new Error('connected') as NodeJS.ErrnoException)).on('error', resolve);
    });
    expect(error.code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
  });
});
