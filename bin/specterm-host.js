#!/usr/bin/env node
// The PTY host process (see src/host/host-main.ts); the daemon starts it detached.
import { hostMain } from '../dist/host/host-main.js';

hostMain(process.argv.slice(2)).then(
  (code) => { process.exit(code); },
  (err) => {
    process.stderr.write(`specterm-host: internal error: ${err && err.message ? err.message : String(err)}\n`);
    process.exit(70);
  },
);
