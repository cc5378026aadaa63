/**
 * The certificate `specterm serve --lan` serves HTTPS with: made once (./self-signed-cert) and
 * kept in the state dir, so the fingerprint a person checked on their phone stays the same
 * across restarts. A new one is made when the address or host name changed, when it expires
 * within 30 days, or when the files are not a private, matching pair.
 *
 * @module
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { LAN_CERT_FILE, LAN_KEY_FILE } from '../client/index.js';
import { ensurePrivateDir } from '../server/paths.js';
import { createSelfSignedCertificate } from '../server/self-signed-cert.js';

/** 397 days: Apple's platforms refuse server certificates valid longer than 398 days. */
const VALIDITY_MS = 397 * 86_400_000;
/** Renewed this long before it expires, so a start never serves one about to lapse. */
const RENEW_BEFORE_MS = 30 * 86_400_000;
/** Valid from this long ago: a phone whose clock is behind must not see "not yet valid". */
const BACKDATE_MS = 60 * 60_000;

/** The certificate to serve and where it is kept. */
export interface LanCertificate {
  cert: string;
  key: string;
  /** SHA-256, `AB:CD:…`, as a browser's certificate viewer shows it. */
  fingerprint256: string;
  certFile: string;
  keyFile: string;
  /**
   * `kept` from an earlier start, `created` (there was none), or `replaced` (the address or host
   * name changed, it was expiring or not private): a phone that accepted the old one asks again.
   */
  status: 'kept' | 'created' | 'replaced';
}

/** What the certificate must name, and the current time. */
export interface LanCertificateRequest {
  address: string;
  hostname: string;
  now: Date;
}

/** Only names a certificate may carry as `DNS` (IA5, letters, digits, dots, hyphens). */
const isDnsName = (name: string): boolean => /^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(name);

/**
 * The certificate for `request.address` in `stateDir`: the kept one when it still fits, else a
 * new one written with mode 0600.
 *
 * @throws PrivatePathError when `stateDir` is not a private directory of ours.
 */
export function ensureLanCertificate(stateDir: string, request: LanCertificateRequest): LanCertificate {
  ensurePrivateDir(stateDir);
  const certFile = path.join(stateDir, LAN_CERT_FILE);
  const keyFile = path.join(stateDir, LAN_KEY_FILE);
  const kept = readFitting(certFile, keyFile, request);
  if (kept) return { ...kept, certFile, keyFile, status: 'kept' };
  const existed = fs.existsSync(certFile);
  const dnsNames = isDnsName(request.hostname) ? [request.hostname] : [];
  const made = createSelfSignedCertificate({
    commonName: `specterm on ${dnsNames[0] ?? request.address}`, ipAddresses: [request.address], dnsNames,
    notBefore: new Date(request.now.getTime() - BACKDATE_MS), notAfter: new Date(request.now.getTime() + VALIDITY_MS),
  });
  writePrivate(keyFile, made.key);
  writePrivate(certFile, made.cert);
  return { ...made, certFile, keyFile, status: existed ? 'replaced' : 'created' };
}

function readFitting(certFile: string, keyFile: string, { address, hostname, now }: LanCertificateRequest): { cert: string; key: string; fingerprint256: string } | null {
  try {
    if (!isPrivateFile(certFile) || !isPrivateFile(keyFile)) return null;
    const cert = fs.readFileSync(certFile, 'utf8');
    const key = fs.readFileSync(keyFile, 'utf8');
    const x509 = new crypto.X509Certificate(cert);
    const names = x509.subjectAltName?.split(', ') ?? [];
    const wanted = [`IP Address:${address}`, ...(isDnsName(hostname) ? [`DNS:${hostname}`] : [])];
    if (names.length !== wanted.length || !wanted.every((n) => names.includes(n))) return null;
    if (Date.parse(x509.validFrom) > now.getTime() || Date.parse(x509.validTo) - now.getTime() < RENEW_BEFORE_MS) return null;
    if (!x509.checkPrivateKey(crypto.createPrivateKey(key))) return null;
    return { cert, key, fingerprint256: x509.fingerprint256 };
  } catch {
    // Missing, unreadable or not PEM: a new pair replaces it.
    return null;
  }
}

function isPrivateFile(file: string): boolean {
  const stat = fs.lstatSync(file);
  return stat.isFile() && (stat.mode & 0o077) === 0 && (process.getuid === undefined || stat.uid === process.getuid());
}

/** Written to a temp file and renamed: a crash never leaves half a key. */
function writePrivate(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, text, { mode: 0o600 });
  fs.renameSync(temp, file);
}
