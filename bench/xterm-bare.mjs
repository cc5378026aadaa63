#!/usr/bin/env node
/**
 * Baseline for the terminal benchmark: replays a recording's output into a bare
 * `@xterm/headless` Terminal through the same synchronous write path TerminalScreen uses
 * (`_core._writeBuffer.writeSync`), with no snapshots, no spec and no driver.
 *
 * Usage: node bench/xterm-bare.mjs [recording.cast] [--runs 3]
 * Default recording: bench/.cache/large.cast (make it with bench/make-recording.mjs).
 * Needs `npx tsc -p tsconfig.build.json` (for the asciicast parser in dist/).
 * Prints `bare_xterm_mb_per_s=…` and `bare_xterm_ms=…` (MB = 10^6 bytes of UTF-8 output;
 * parsing the file is not timed).
 */

import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import xtermHeadless from '@xterm/headless';

const here = dirname(fileURLToPath(import.meta.url));
const DEFAULT_CAST = resolve(here, '.cache/large.cast');
const DIST_RECORDING = resolve(here, '../dist/recording/index.js');

/** Loads and parses a recording with specterm's own parser (from dist/). */
export async function loadRecording(castPath) {
  if (!existsSync(DIST_RECORDING)) {
    throw new Error(`${DIST_RECORDING} is missing; build first with: npx tsc -p tsconfig.build.json`);
  }
  if (!existsSync(castPath)) {
    throw new Error(`${castPath} is missing; generate it with: node bench/make-recording.mjs`);
  }
  const { parseAsciicast } = await import(DIST_RECORDING);
  return parseAsciicast(readFileSync(castPath, 'utf8'), castPath);
}

/**
 * One timed replay of a parsed recording's `o` (and `r`) events into a fresh bare headless
 * terminal: the baseline every pipeline figure is compared with.
 *
 * @param {{ header: { width: number, height: number }, events: Array<{ type: string, data: string }> }} cast
 * @returns {{ ms: number, finalText: string }}
 */
export function bareReplayMs(cast) {
  const term = new xtermHeadless.Terminal({ cols: cast.header.width, rows: cast.header.height, scrollback: 2000, allowProposedApi: true });
  const writeBuffer = term._core._writeBuffer;
  const started = process.hrtime.bigint();
  for (const event of cast.events) {
    if (event.type === 'o') {
      writeBuffer.writeSync(event.data);
    } else if (event.type === 'r') {
      const [cols, rows] = event.data.split('x').map(Number);
      term.resize(cols, rows);
    }
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const buffer = term.buffer.active;
  const lines = [];
  for (let y = buffer.baseY; y < buffer.baseY + term.rows; y++) lines.push(buffer.getLine(y)?.translateToString(true).trimEnd() ?? '');
  term.dispose();
  return { ms, finalText: lines.join('\n') };
}

/**
 * Replays the recording's `o` (and `r`) events into a bare headless terminal, timed.
 *
 * @param {string} castPath - recording to replay.
 * @param {{ runs?: number }} [options] - timed runs (the median is reported); default 1.
 * @returns {Promise<{ bytes: number, ms: number, mbPerS: number, chunks: number, finalText: string }>}
 */
export async function replayBare(castPath = DEFAULT_CAST, options = {}) {
  const cast = await loadRecording(castPath);
  const runs = Math.max(1, options.runs ?? 1);
  const chunks = cast.events.filter((e) => e.type === 'o' || e.type === 'r').length;
  const bytes = cast.events.reduce((sum, e) => (e.type === 'o' ? sum + Buffer.byteLength(e.data) : sum), 0);
  const times = [];
  let finalText = '';
  for (let run = 0; run < runs; run++) {
    const r = bareReplayMs(cast);
    times.push(r.ms);
    finalText = r.finalText;
  }
  times.sort((a, b) => a - b);
  const ms = times[Math.floor(times.length / 2)];
  return { bytes, ms, mbPerS: bytes / 1e6 / (ms / 1000), chunks, finalText };
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const args = process.argv.slice(2);
  let castPath = DEFAULT_CAST;
  let runs = 3;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--runs') runs = Number(args[++i]);
    else castPath = resolve(args[i]);
  }
  try {
    const result = await replayBare(castPath, { runs });
    console.log(`bare_xterm_mb_per_s=${result.mbPerS.toFixed(2)}`);
    console.log(`bare_xterm_ms=${result.ms.toFixed(1)}`);
    console.log(`bare_xterm_bytes=${result.bytes}`);
    console.log(`bare_xterm_chunks=${result.chunks}`);
  } catch (error) {
    console.error(`xterm-bare: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
