/**
 * `npm run lab -- claude-code --crawl [--only /x,/y] [--verbose] [--accuracy] [--record-to DIR]`:
 * the crawler (lab/lib/crawl.mjs) over the real Claude Code, each crawl session started exactly as
 * the lab's scenarios are (session.mjs), with the `hello` scenario's scripted server.
 * @module
 */
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crawlSession, crawlVersion, runCrawl } from '../lib/crawl.mjs';
import { ensureCli } from '../lib/install-cli.mjs';
import { loadScenario } from './server.mjs';
import { endLeftovers, loadSpec, prepareSession } from './session.mjs';

const here = dirname(fileURLToPath(import.meta.url));

/** What the crawler needs to know of Claude Code beyond its own command menu. */
export const CLAUDE_CODE_CRAWL = {
  id: 'claude-code',
  cliName: 'Claude Code',
  limits: { startMs: 90_000 },
  // For ~10 s after start-up Claude Code shows hints that then go by themselves ("◐ medium ·
  // /effort" above the input, "· ← for agents" in the footer): the crawler's idle baseline is
  // taken after they went, or every later idle screen would differ from it.
  settleMs: 15_000,
  crawl: {
    skip: {
      logout: 'logs out',
      login: 'replaces the lab\'s sign-in (its items start an OAuth login)',
      bug: 'sends a report to Anthropic',
      feedback: 'sends a report to Anthropic',
      tui: 'switches the renderer for the rest of the crawl',
    },
    // The keys its /help and `?` screens list beyond the common ones ("← for agents" is in its
    // footer). Left out: Ctrl+Z (suspends the process), Ctrl+G (opens $EDITOR over the CLI),
    // Ctrl+V (reads the clipboard).
    chords: [
      { name: 'Left', keys: ['\u001b[D'] },
      { name: 'Alt+P', keys: ['\u001bp'] },
      { name: 'Ctrl+S', keys: ['\u0013'] },
      { name: 'Ctrl+_', keys: ['\u001f'] },
    ],
  },
};

/**
 * Installs or finds the CLI (`pinned`, or `--version V` in `args`) and returns its version and the
 * crawler's `start(def, { record })`: the live session, `exitedYet()` and `stop()`.
 */
export async function crawlSessions(args, pinned) {
  const { binPath, version } = ensureCli('@anthropic-ai/claude-code', crawlVersion(args, pinned), 'claude');
  const ctx = { spec: loadSpec(binPath), version };
  const hello = loadScenario(join(here, 'scenarios', 'hello.json'));
  const start = async (def, { record = null } = {}) => {
    const { tmp, server, open } = await prepareSession({ ...hello, name: def.name }, def, ctx);
    return crawlSession(open(record ?? join(tmp, `${def.name}.cast`)), async () => {
      await server.close();
      await endLeftovers(tmp);
      rmSync(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    });
  };
  return { version, start };
}

/** Runs the crawl; `pinned` is the version the spec is proven on (`--version V` overrides it). */
export async function crawlClaudeCode(args, pinned) {
  const { version, start } = await crawlSessions(args, pinned);
  return runCrawl({ cli: CLAUDE_CODE_CRAWL, version, args, start });
}
