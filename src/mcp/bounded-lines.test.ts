import { describe, expect, it } from 'vitest';
import { BoundedLines, requestIdIn } from './bounded-lines.js';

async function run(chunks: string[], maxBytes: number) {
  const dropped: Array<[string | number | null, number]> = [];
  const lines = new BoundedLines(maxBytes, (id, bytes) => dropped.push([id, bytes]));
  let out = '';
  lines.on('data', (c: Buffer) => { out += c.toString(); });
  for (const c of chunks) lines.write(Buffer.from(c));
  await new Promise<void>((resolve) => lines.end(resolve));
  return { out, dropped };
}

describe('BoundedLines', () => {
  it('passes lines through unchanged, however they are cut into chunks', async () => {
    const { out, dropped } = await run(['{"a":', '1}\n{"b"', ':2}\n\n{"c":3}', '\n'], 100);
    expect(out).toBe('{"a":1}\n{"b":2}\n\n{"c":3}\n');
    expect(dropped).toEqual([]);
  });

  it('drops a line over the bound as it streams, names its request id, and goes on with the next', async () => {
    const big = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"text":"${'x'.repeat(500)}"}}`;
    const { out, dropped } = await run([big.slice(0, 200), big.slice(200), '\n{"id":8}\n'], 100);
    expect(out).toBe('{"id":8}\n');
    expect(dropped).toEqual([[7, big.length]]);
  });

  it('finds the id at the end of a dropped line, where the SDK\'s client writes it', async () => {
    const big = `{"method":"tools/call","params":{"text":"${'x'.repeat(500)}"},"jsonrpc":"2.0","id":"r9"}`;
    const { dropped } = await run([big, '\n'], 100);
    expect(dropped).toEqual([['r9', big.length]]);
  });

  it('reads a request id that is a number, a string, or absent', () => {
    expect(requestIdIn('{"jsonrpc":"2.0","id": 12,')).toBe(12);
    expect(requestIdIn('{"id":"req-\\"1\\"","method"')).toBe('req-"1"');
    expect(requestIdIn('{"jsonrpc":"2.0","method":"x"')).toBeNull();
  });
});
