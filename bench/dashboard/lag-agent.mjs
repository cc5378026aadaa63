#!/usr/bin/env node
/**
 * The dashboard benchmark's streaming agent (bench/dashboard-paint.mjs, its spec beside it): at
 * 10 fps it prints about 200 bytes of answer text and a visible stamp line
 * `STAMP <n> <wall ms>`, the wall-clock time it wrote the frame at
 * (`performance.timeOrigin + performance.now()`, the same clock a page on this machine reads),
 * so the page can tell how long the bytes took to reach the screen. The daemon bench's OSC 777
 * stamps are invisible and CLOCK_MONOTONIC, which a page cannot read: these are painted.
 *
 * `node bench/dashboard/lag-agent.mjs [--fps N]`
 */
const argv = process.argv.slice(2);
const fpsAt = argv.indexOf('--fps');
const FPS = fpsAt >= 0 ? Number(argv[fpsAt + 1]) : 10;
const WORDS = 'the a of to and in that is for it with as on be this by are from function value return state screen driver session buffer output render stream token cache'.split(' ');

let n = 0;
let seed = 7;
const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const line = (width) => {
  let text = '';
  while (text.length < width) text += `${WORDS[Math.floor(random() * WORDS.length)]} `;
  return text.slice(0, width).trimEnd();
};

process.stdout.write('\x1b[2J\x1b[H\x1b[1m✻ Lag agent\x1b[22m\r\n\r\n');
setInterval(() => {
  n += 1;
  const wall = (performance.timeOrigin + performance.now()).toFixed(3);
  process.stdout.write(`\x1b[37m  ${line(96)}\r\n  ${line(96)}\x1b[39m\r\n\x1b[1mSTAMP ${n} ${wall}\x1b[22m\r\n`);
}, 1000 / FPS);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
