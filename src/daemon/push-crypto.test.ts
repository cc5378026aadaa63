import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encryptPushPayload, generateVapidKeys, MAX_PUSH_PLAINTEXT_BYTES, vapidAuthorization } from './push-crypto.js';

describe('encryptPushPayload (RFC 8291 aes128gcm)', () => {
  it('gives the RFC 8291 Appendix A message for its keys, salt and plaintext', () => {
    const message = encryptPushPayload(Buffer.from('When I grow up, I want to be a watermelon'), {
      p256dh: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
      auth: 'BTBZMqHH6r4Tts7J_aSIgg',
    }, { salt: Buffer.from('DGv6ra1nlYgDCS1FRnbzlw', 'base64url'), senderPrivate: Buffer.from('yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw', 'base64url') });
    expect(message.toString('base64url')).toBe(
      'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
    );
  });

  it('refuses keys of the wrong shape and payloads past the push limit, naming them', () => {
    expect(() => encryptPushPayload(Buffer.from('x'), { p256dh: 'AAAA', auth: 'BTBZMqHH6r4Tts7J_aSIgg' })).toThrow(/keys\.p256dh must be an uncompressed P-256 public key/);
    const ua = crypto.createECDH('prime256v1');
    ua.generateKeys();
    expect(() => encryptPushPayload(Buffer.from('x'), { p256dh: ua.getPublicKey('base64url'), auth: 'AAAA' })).toThrow(/keys\.auth must be 16 bytes/);
    expect(() => encryptPushPayload(Buffer.alloc(MAX_PUSH_PLAINTEXT_BYTES + 1), { p256dh: ua.getPublicKey('base64url'), auth: 'BTBZMqHH6r4Tts7J_aSIgg' })).toThrow(/at most 3993 bytes/);
  });
});

describe('vapidAuthorization (RFC 8292)', () => {
  it('signs an ES256 JWT for the endpoint\'s origin that the public key verifies', () => {
    const keys = generateVapidKeys();
    const header = vapidAuthorization('https://push.example.net:8443/wpush/abc?x=1', keys, 'mailto:admin@localhost', 1_700_000_000_000);
    const match = /^vapid t=([^.]+)\.([^.]+)\.([^,]+), k=(\S+)$/.exec(header)!;
    expect(match).not.toBeNull();
    const [, head, body, signature, k] = match;
    expect(k).toBe(keys.publicKey);
    expect(JSON.parse(Buffer.from(head!, 'base64url').toString())).toEqual({ typ: 'JWT', alg: 'ES256' });
    expect(JSON.parse(Buffer.from(body!, 'base64url').toString())).toEqual({ aud: 'https://push.example.net:8443', exp: 1_700_000_000 + 12 * 3600, sub: 'mailto:admin@localhost' });
    const raw = Buffer.from(k!, 'base64url');
    const publicKey = crypto.createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') }, format: 'jwk' });
    const verify = (sig: Buffer) => crypto.verify('sha256', Buffer.from(`${head}.${body}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, sig);
    expect(verify(Buffer.from(signature!, 'base64url'))).toBe(true);
    const tampered = Buffer.from(signature!, 'base64url');
    tampered[0]! ^= 1;
    expect(verify(tampered)).toBe(false);
  });
});
