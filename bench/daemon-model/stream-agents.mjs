/**
 * The benchmarks' streaming agents: one StreamAgent (../fake-agent.mjs) per session, written
 * into a FIFO that the session's PTY child `cat`s — N small `cat`s instead of N Node processes,
 * whose CPU and memory are not the daemon's. Shared by daemon-model.mjs and fleet.mjs.
 * @module
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { FRAME_MS, StreamAgent } from '../fake-agent.mjs';

const FLIP = /\x1b\]777;t=(\d+);k=(busy|idle)\x07/g;

/**
 * Starts one StreamAgent per session writing into its FIFO, staggered in time and in phase.
 * Writes never block: what the pipe does not take now waits, in order, for the next tick (the
 * opening transcript is larger than a pipe, and `cat` may not have opened the FIFO yet).
 */
export function startAgents(dir, n, { cols, turnMs, idleMs, historyLines, writeBytesPerTick, keepFlips = false }) {
  const sessions = [];
  /** Per session: the turn starts and ends written, `{kind, t}` (t = the frame's stamp, ns). */
  const flips = [];
  const timers = [];
  const fds = [];
  for (let i = 0; i < n; i++) {
    const fifo = path.join(dir, `agent-${i}.fifo`);
    execFileSync('mkfifo', ['-m', '600', fifo]);
    // O_RDWR never blocks on a FIFO (Linux); bytes wait in the pipe until `cat` opens it.
    const fd = fs.openSync(fifo, fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
    fds.push(fd);
    const agent = new StreamAgent({ cols, turnMs, idleMs, offsetMs: Math.round((i * (turnMs + idleMs)) / n), seed: i + 1, historyLines });
    let pending = Buffer.alloc(0);
    const sessionFlips = [];
    flips.push(sessionFlips);
    const write = () => {
      const text = agent.tick(performance.now());
      if (keepFlips && text.includes(';k=')) for (const m of text.matchAll(FLIP)) sessionFlips.push({ kind: m[2], t: BigInt(m[1]) });
      if (text) pending = pending.length ? Buffer.concat([pending, Buffer.from(text)]) : Buffer.from(text);
      // At most writeBytesPerTick a tick: the opening transcript arrives over a few seconds,
      // not as one burst (a burst from 10 sessions at once is not what the steady state measures).
      let budget = writeBytesPerTick;
      while (pending.length > 0 && budget > 0) {
        let written = 0;
        try {
          written = fs.writeSync(fd, pending, 0, Math.min(pending.length, budget));
        } catch (error) {
          if (error.code === 'EAGAIN') break;
          throw error;
        }
        pending = pending.subarray(written);
        budget -= written;
      }
    };
    write();
    timers.push(setTimeout(() => timers.push(setInterval(write, FRAME_MS)), Math.round((i * FRAME_MS) / n)));
    sessions.push({ id: `s${i}`, fifo });
  }
  return { sessions, flips, stop: () => { for (const t of timers) clearInterval(t); for (const fd of fds) fs.closeSync(fd); } };
}
