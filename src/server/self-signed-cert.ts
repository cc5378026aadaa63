/**
 * One self-signed X.509 certificate (ECDSA P-256, SHA-256) for serving HTTPS on the local
 * network (`specterm serve --lan`). Node 20 can parse and verify certificates but not make one,
 * and `openssl` is absent on a fresh Debian machine, so this writes the few DER structures of
 * RFC 5280 a server certificate needs: version 3, a random serial, CN subject = issuer, a
 * validity, the key, and the extensions subjectAltName (the addresses the browser checks),
 * basicConstraints CA:FALSE, keyUsage digitalSignature and extendedKeyUsage serverAuth.
 *
 * @module
 */
import crypto from 'node:crypto';
import net from 'node:net';

/** What {@link createSelfSignedCertificate} makes. */
export interface SelfSignedCertificate {
  /** The certificate, PEM. */
  cert: string;
  /** Its private key, PKCS#8 PEM. */
  key: string;
  /** SHA-256 of the DER certificate, `AB:CD:…` as browsers show it. */
  fingerprint256: string;
}

/** What the certificate names and how long it is valid. */
export interface SelfSignedCertificateOptions {
  commonName: string;
  /** IPv4 or IPv6 addresses the certificate is for (SAN `IP Address`). */
  ipAddresses?: readonly string[];
  /** Host names it is for (SAN `DNS`). */
  dnsNames?: readonly string[];
  notBefore: Date;
  notAfter: Date;
}

// DER tags (X.690) and object identifiers (RFC 5280, RFC 5758).
const TAG = { boolean: 0x01, integer: 0x02, bitString: 0x03, octetString: 0x04, oid: 0x06, utf8: 0x0c, utcTime: 0x17, generalizedTime: 0x18, sequence: 0x30, set: 0x31 } as const;
const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
} as const;
/** SAN GeneralName choices, context-specific primitive: [2] dNSName, [7] iPAddress. */
const SAN_DNS = 0x82;
const SAN_IP = 0x87;

function encode(tag: number, content: Buffer): Buffer {
  const n = content.length;
  if (n < 0x80) return Buffer.concat([Buffer.from([tag, n]), content]);
  const length: number[] = [];
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) length.unshift(rest % 256);
  return Buffer.concat([Buffer.from([tag, 0x80 | length.length, ...length]), content]);
}

const sequence = (...items: Buffer[]): Buffer => encode(TAG.sequence, Buffer.concat(items));

function oid(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split('.').map(Number);
  const bytes = [first! * 40 + second!];
  for (const arc of rest) {
    const base128 = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) base128.unshift(0x80 | (v & 0x7f));
    bytes.push(...base128);
  }
  return encode(TAG.oid, Buffer.from(bytes));
}

/** RFC 5280 4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050. */
function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:T]/g, '');
  const year = date.getUTCFullYear();
  return year < 2050 ? encode(TAG.utcTime, Buffer.from(iso.slice(2), 'ascii')) : encode(TAG.generalizedTime, Buffer.from(iso, 'ascii'));
}

function name(commonName: string): Buffer {
  return sequence(encode(TAG.set, sequence(oid(OID.commonName), encode(TAG.utf8, Buffer.from(commonName, 'utf8')))));
}

function ipBytes(address: string): Buffer {
  if (net.isIPv4(address)) return Buffer.from(address.split('.').map(Number));
  if (!net.isIPv6(address)) throw new TypeError(`${address} is not an IP address`);
  // Expand `::` to the missing zero groups, then write eight 16-bit groups.
  const [head = '', tail] = address.split('::');
  const groups = (s: string) => (s ? s.split(':') : []);
  const known = [...groups(head), ...groups(tail ?? '')];
  const all = tail === undefined ? known : [...groups(head), ...Array<string>(8 - known.length).fill('0'), ...groups(tail)];
  return Buffer.from(all.flatMap((g) => { const v = parseInt(g, 16); return [v >> 8, v & 0xff]; }));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return sequence(oid(id), ...(critical ? [encode(TAG.boolean, Buffer.from([0xff]))] : []), encode(TAG.octetString, value));
}

function extensions(options: SelfSignedCertificateOptions): Buffer {
  const san = [
    ...(options.ipAddresses ?? []).map((ip) => encode(SAN_IP, ipBytes(ip))),
    ...(options.dnsNames ?? []).map((dns) => encode(SAN_DNS, Buffer.from(dns, 'ascii'))),
  ];
  // keyUsage is a BIT STRING of one byte, 7 bits unused: 0x80 sets bit 0, digitalSignature.
  const digitalSignature = encode(TAG.bitString, Buffer.from([0x07, 0x80]));
  const list = sequence(
    extension(OID.subjectAltName, false, sequence(...san)),
    extension(OID.basicConstraints, true, sequence()),
    extension(OID.keyUsage, true, digitalSignature),
    extension(OID.extKeyUsage, false, sequence(oid(OID.serverAuth))),
  );
  return encode(0xa3, list); // [3] EXPLICIT Extensions
}

/**
 * Makes a new key pair and a certificate for it, signed by itself.
 *
 * @throws TypeError when an entry of `ipAddresses` is not an IP address.
 * @example
 * const { cert, key, fingerprint256 } = createSelfSignedCertificate({
 *   commonName: 'specterm', ipAddresses: ['192.168.1.20'], notBefore: new Date(), notAfter: inAYear });
 */
export function createSelfSignedCertificate(options: SelfSignedCertificateOptions): SelfSignedCertificate {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const serial = crypto.randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x40; // positive and 16 bytes long, as RFC 5280 asks
  const algorithm = sequence(oid(OID.ecdsaWithSha256));
  const tbs = sequence(
    encode(0xa0, encode(TAG.integer, Buffer.from([2]))), // [0] EXPLICIT version v3
    encode(TAG.integer, serial),
    algorithm,
    name(options.commonName),
    sequence(time(options.notBefore), time(options.notAfter)),
    name(options.commonName),
    publicKey.export({ type: 'spki', format: 'der' }),
    extensions(options),
  );
  const signature = crypto.sign('sha256', tbs, privateKey);
  const der = sequence(tbs, algorithm, encode(TAG.bitString, Buffer.concat([Buffer.from([0]), signature])));
  const base64 = der.toString('base64').replace(/.{1,64}/g, '$&\n');
  const cert = `-----BEGIN CERTIFICATE-----\n${base64}-----END CERTIFICATE-----\n`;
  return {
    cert,
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    fingerprint256: new crypto.X509Certificate(der).fingerprint256,
  };
}
