import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HostError } from './errors.js';
import { encodeJson, encodeOutput, FRAME_OUTPUT, FRAME_REPLAY, FrameDecoder, parseClientMessage, type ClientMessage } from './wire.js';

function decodeAll(bytes: Buffer, cuts: number[]): ReturnType<FrameDecoder['push']> {
  const decoder = new FrameDecoder();
  const frames = [];
  let at = 0;
  for (const cut of [...cuts.map((c) => c % (bytes.length + 1)).sort((a, b) => a - b), bytes.length]) {
    frames.push(...decoder.push(bytes.subarray(at, Math.max(at, cut))));
    at = Math.max(at, cut);
  }
  expect(decoder.pendingBytes).toBe(0);
  return frames;
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof HostError ? error.code : 'not a HostError';
  }
  return undefined;
}

describe('host wire framing', () => {
  it('decodes JSON and output frames however the stream is cut', () => {
    fc.assert(fc.property(fc.string(), fc.uint8Array({ maxLength: 300 }), fc.nat({ max: 2 ** 40 }), fc.array(fc.nat(), { maxLength: 6 }), (data, bytes, seq, cuts) => {
      const write: ClientMessage = { type: 'write', req: 7, id: 'sess-1', data };
      const stream = Buffer.concat([encodeJson(write), encodeOutput(FRAME_OUTPUT, 'sess-1', seq, bytes), encodeOutput(FRAME_REPLAY, 'x', 0, bytes)]);
      const frames = decodeAll(stream, cuts);
      expect(frames).toEqual([
        { kind: 'json', message: write },
        { kind: 'output', id: 'sess-1', seq, bytes: Buffer.from(bytes) },
        { kind: 'replay', id: 'x', seq: 0, bytes: Buffer.from(bytes) },
      ]);
    }));
  });

  it('refuses a frame longer than the limit before buffering it', () => {
    const decoder = new FrameDecoder(1000);
    const header = Buffer.alloc(5);
    header.writeUInt32BE(1001, 0);
    expect(codeOf(() => decoder.push(header))).toBe('HOST_FRAME_TOO_LARGE');
  });

  it('refuses an unknown frame kind, an empty frame and JSON that does not parse', () => {
    expect(codeOf(() => new FrameDecoder().push(Buffer.from([0, 0, 0, 1, 9])))).toBe('HOST_BAD_MESSAGE');
    expect(codeOf(() => new FrameDecoder().push(Buffer.from([0, 0, 0, 0])))).toBe('HOST_BAD_MESSAGE');
    expect(codeOf(() => new FrameDecoder().push(Buffer.from([0, 0, 0, 3, 1, 0x7b, 0x7b])))).toBe('HOST_BAD_MESSAGE');
  });
});

describe('client message validation', () => {
  const spawn = { type: 'spawn', req: 1, file: 'node', args: [], cwd: '/tmp', env: { TOKEN: 'secret-value' }, cols: 80, rows: 24 };

  it('accepts well-formed requests', () => {
    expect(parseClientMessage(spawn)).toBe(spawn);
    expect(parseClientMessage({ type: 'kill', req: 2, id: 'a', signal: 'SIGTERM' }).type).toBe('kill');
  });

  it.each([
    [{ ...spawn, cols: 0 }, /field cols must be an integer between 1 and 1000, got 0/],
    [{ ...spawn, args: ['ok', 3] }, /field args\[1\] must be a string, got 3/],
    [{ ...spawn, id: '../etc' }, /field id must be a session id/],
    [{ type: 'attach', req: 1, id: 'a', since: -1 }, /field since must be a byte seq/],
    [{ type: 'kill', req: 1, id: 'a', signal: 'SIGNOPE' }, /field signal must be a signal name/],
    [{ type: 'launch', req: 1 }, /field type must be one of hello, spawn/],
    [{ type: 'list', req: 0 }, /field req must be a positive integer/],
    [[1, 2], /field \(message\) must be a JSON object/],
  ])('names the field, the value and what is expected: %j', (message, error) => {
    expect(() => parseClientMessage(message)).toThrow(error);
  });

  it('never puts an env value in the error', () => {
    expect(() => parseClientMessage({ ...spawn, env: { TOKEN: 'secret-value', N: 5 } })).toThrow(/field env\.N must be a string, got "number"/);
    try {
      parseClientMessage({ ...spawn, env: { TOKEN: 'secret-value', N: 5 } });
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('secret-value');
    }
  });
});
