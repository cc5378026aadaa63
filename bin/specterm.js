#!/usr/bin/env node
// Thin launcher: the command lives in dist/ (built by `npm run build`).
import { main } from '../dist/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err) => {
    process.stderr.write(`specterm: internal error: ${err && err.message ? err.message : String(err)}\n`);
    process.exitCode = 70;
  },
);
