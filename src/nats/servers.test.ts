import { describe, expect, it } from 'vitest';
import { parseNatsServers, redactUrl } from './servers.js';

describe('the NATS servers of --nats', () => {
  it('takes one URL, or a cluster\'s separated by commas', () => {
    expect(parseNatsServers('nats://hub.lan:4222')).toEqual({ servers: ['nats://hub.lan:4222'] });
    expect(parseNatsServers('tls://a:4222, tls://b:4222,tls://c')).toEqual({ servers: ['tls://a:4222', 'tls://b:4222', 'tls://c'] });
  });

  it('refuses credentials in a URL without repeating them', () => {
    const parsed = parseNatsServers('nats://a:4222,nats://me:secret@b:4222');
    expect(parsed).toEqual({ error: expect.stringContaining('nats://b:4222 carries credentials') });
    expect(JSON.stringify(parsed)).not.toContain('secret');
  });

  it('names what is not a NATS URL and how to write one', () => {
    expect(parseNatsServers('http://a:4222')).toEqual({ error: expect.stringMatching(/^http:\/\/a:4222 is not a NATS URL; give nats:\/\/host:port/) });
    expect(parseNatsServers(' , ')).toEqual({ error: expect.stringContaining('give the NATS server\'s URL') });
  });

  it('redacts every user:password of a list for logs', () => {
    expect(redactUrl('nats://u:p@a:1,tls://v:q@b:2')).toBe('nats://a:1,tls://b:2');
  });
});
