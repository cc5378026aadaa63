#!/bin/sh
':' //; exec node --max-semi-space-size=1 "$0" "$@"
// The line above is shell: it starts Node with the V8 flags of src/cli/node-flags.ts (why: see
// there) on this same file, which Node then reads as JavaScript (to Node it is a string and a
// comment). `node bin/specterm.js …` skips it and runs without them.
// Thin launcher: the command lives in dist/ (built by `npm run build`).
import { main } from '../dist/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err) => {
    process.stderr.write(`specterm: internal error: ${err && err.message ? err.message : String(err)}\n`);
    process.exitCode = 70;
  },
);
