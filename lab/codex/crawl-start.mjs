/**
 * `npm run lab -- codex --crawl [--only /x,/y] [--verbose] [--accuracy] [--record-to DIR]`: the
 * crawler (lab/lib/crawl.mjs) over the real Codex CLI, each crawl session started exactly as the
 * lab's scenarios are (session.mjs), with the `hello` scenario's scripted server.
 * @module
 */
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crawlSession, crawlVersion, runCrawl } from '../lib/crawl.mjs';
import { ensureCli } from '../lib/install-cli.mjs';
import { loadScenario } from './server.mjs';
import { endDaemons, startCodexSession } from './session.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Removes a session's temp dir: its daemons may still be writing their state files as they end. */
async function removeDir(root) {
  for (let attempt = 1; ; attempt++) {
    try { rmSync(root, { recursive: true, force: true }); return; } catch (err) {
      if (attempt === 10) { process.stderr.write(`lab codex --crawl: could not remove ${root} (${err.code}); remove it by hand\n`); return; }
      await sleep(500);
    }
  }
}

/** What the crawler needs to know of Codex beyond its own command menu. */
export const CODEX_CRAWL = {
  id: 'codex',
  cliName: 'Codex CLI',
  limits: { startMs: 90_000 },
  settleMs: 2000,
  crawl: {
    skip: {
      logout: 'logs out',
      feedback: 'uploads logs to OpenAI',
    },
    // The keys its `?` overlay lists beyond the common ones (F2 is in its footer: "⚠ 1 warning ·
    // f2 to view"). Left out: F8 (voice: the microphone), Ctrl+G (opens $EDITOR over the CLI),
    // Ctrl+V (reads the clipboard), Ctrl+C (quits).
    chords: [
      { name: 'Left', keys: ['\u001b[D'] },
      { name: 'Alt+Left', keys: ['\u001b[1;3D'] },
      { name: 'Alt+,', keys: ['\u001b,'] },
      { name: 'Alt+.', keys: ['\u001b.'] },
      { name: 'F2', keys: ['\u001bOQ'] },
      { name: 'F3', keys: ['\u001bOR'] },
      { name: 'F4', keys: ['\u001bOS'] },
    ],
  },
};

/**
 * Installs or finds the CLI (`pinned`, or `--version V` in `args`) and returns its version and the
 * crawler's `start(def, { record })`: the live session, `exitedYet()` and `stop()`.
 */
export async function crawlSessions(args, pinned) {
  const { binPath, version } = ensureCli('@openai/codex', crawlVersion(args, pinned), 'codex');
  const live = await import(join(repo, 'dist', 'harness', 'live-session.js'));
  const hello = loadScenario(join(here, 'scenarios', 'hello.json'));
  const start = async (def, { record = null } = {}) => {
    const scenario = { ...hello, name: def.name, cols: def.cols, rows: def.rows };
    const { s, root, server } = await startCodexSession(scenario, { binPath, live, verbose: false }, { record });
    const handle = crawlSession(s, async () => { await server.close(); endDaemons(root); await removeDir(root); });
    // Codex draws its composer long before it reads input and sets the window title once it does
    // (lab.mjs waits the same way): keys typed earlier are lost.
    for (const until = Date.now() + 60_000; !s.driver.screen.windowTitle && !(await handle.exitedYet()) && Date.now() < until;) await sleep(50);
    return handle;
  };
  return { version, start };
}

/** Runs the crawl; `pinned` is the version the spec is proven on (`--version V` overrides it). */
export async function crawlCodex(args, pinned) {
  const { version, start } = await crawlSessions(args, pinned);
  return runCrawl({ cli: CODEX_CRAWL, version, args, start });
}
