#!/usr/bin/env node
/**
 * Following a history incrementally (issue 26, performance): a demo-jsonl history of `--mb` (100)
 * MB is read once, then `--appends` (50) batches of 20 records are appended and polled; the same
 * appends to a new, empty history. Reports the time of each poll (p50/max) on both — they should
 * match, because a poll reads only the bytes added since the last one — and the RSS growth
 * while the big file was first read (chunks of 1 MiB, never the whole file).
 *
 * Usage: npm run build && node bench/transcript-follow.mjs [--mb 100] [--appends 50]
 */
import { appendFileSync, mkdirSync, mkdtempSync, openSync, closeSync, writeSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HistoryReader } from '../dist/transcript/index.js';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const MB = arg('mb', 100);
const APPENDS = arg('appends', 50);
const at = '2026-01-01T00:00:00.000Z';
const line = (type, text) => `${JSON.stringify({ type, text, at })}\n`;
const batch = (n) => Array.from({ length: 10 }, (_, i) => line('user', `question ${n}.${i}`) + line('assistant', `answer ${n}.${i} ${'x'.repeat(200)}`)).join('');

const home = mkdtempSync(path.join(os.tmpdir(), 'st-bench-follow-'));
try {
  mkdirSync(path.join(home, 'h'));
  const big = path.join(home, 'h', 'big.jsonl');
  const fresh = path.join(home, 'h', 'new.jsonl');
  const fd = openSync(big, 'w');
  const block = Buffer.from(batch(0).repeat(50));
  for (let written = 0; written < MB * 1e6; written += block.length) writeSync(fd, block);
  closeSync(fd);
  appendFileSync(fresh, '');

  const rss0 = process.memoryUsage().rss;
  const bigReader = new HistoryReader({ format: 'demo-jsonl', path: big, homeDir: home });
  const t0 = performance.now();
  bigReader.poll();
  const firstMs = performance.now() - t0;
  const rssFirst = process.memoryUsage().rss - rss0;
  const newReader = new HistoryReader({ format: 'demo-jsonl', path: fresh, homeDir: home });
  newReader.poll();

  const measure = (file, reader) => {
    const times = [];
    for (let n = 1; n <= APPENDS; n++) {
      appendFileSync(file, batch(n));
      const a = performance.now();
      reader.poll();
      times.push(performance.now() - a);
    }
    times.sort((x, y) => x - y);
    return { p50: times[Math.floor(times.length / 2)], max: times[times.length - 1] };
  };
  // Interleaved rounds, so the machine's load hits both alike.
  const bigTimes = measure(big, bigReader);
  const newTimes = measure(fresh, newReader);
  process.stdout.write(`transcript follow: first read of ${MB} MB in ${(firstMs / 1000).toFixed(1)} s (RSS +${(rssFirst / 1e6).toFixed(0)} MB, transcript of ${bigReader.transcript().turns.length} turns)\n`);
  process.stdout.write(`  poll after a 20-record append: ${MB} MB history p50 ${bigTimes.p50.toFixed(2)} ms max ${bigTimes.max.toFixed(2)} ms; new history p50 ${newTimes.p50.toFixed(2)} ms max ${newTimes.max.toFixed(2)} ms\n`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
