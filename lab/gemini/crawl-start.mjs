/**
 * `npm run lab -- gemini --crawl [--only /x,/y] [--verbose] [--accuracy] [--record-to DIR]`: the
 * crawler (lab/lib/crawl.mjs) over the real Gemini CLI, each crawl session started exactly as the
 * lab's own sessions are (session.mjs).
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { crawlSession, crawlVersion, runCrawl } from '../lib/crawl.mjs';
import { ensureCli } from '../lib/install-cli.mjs';
import { loadScenarios } from './server.mjs';
import { startGeminiSession } from './session.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** What the crawler needs to know of Gemini CLI beyond its own command menu. */
export const GEMINI_CRAWL = {
  id: 'gemini',
  cliName: 'Gemini CLI',
  limits: { startMs: 90_000 },
  // Gemini queues keys typed while it still initialises (the lab's sessions wait 4 s too).
  settleMs: 4000,
  crawl: {
    skip: {
      'bug-memory': 'writes a V8 heap snapshot of the CLI (hundreds of MB)',
      'setup-github': 'downloads GitHub workflows into the workspace',
    },
    // The keys its /help and `?` screens list beyond the common ones. Left out: Ctrl+G (opens
    // $EDITOR over the CLI), Ctrl+V (reads the clipboard), Ctrl+C (quits).
    chords: [
      { name: 'Ctrl+Y', keys: ['\u0019'] },
      { name: 'Ctrl+L', keys: ['\u000c'] },
      { name: 'F9', keys: ['\u001b[20~'] },
      { name: 'Alt+M', keys: ['\u001bm'] },
      { name: 'Ctrl+P', keys: ['\u0010'] },
    ],
  },
};

/**
 * Installs or finds the CLI (`pinned`, or `--version V` in `args`) and returns its version and the
 * crawler's `start(def, { record })`: the live session, `exitedYet()` and `stop()`.
 */
export async function crawlSessions(args, pinned) {
  const { binPath, version } = ensureCli('@google/gemini-cli', crawlVersion(args, pinned), 'gemini');
  const liveMod = await import(pathToFileURL(path.join(repo, 'dist', 'harness', 'live-session.js')).href);
  const specMod = await import(pathToFileURL(path.join(repo, 'dist', 'catalog', 'builtin.js')).href);
  const ctx = { binPath, liveMod, specMod, scenarios: loadScenarios() };
  const start = async (def, { record = null } = {}) => {
    const { s, server, tmp } = await startGeminiSession(def, ctx, { record });
    return crawlSession(s, async () => { await server.close(); fs.rmSync(tmp, { recursive: true, force: true }); });
  };
  return { version, start };
}

/** Runs the crawl; `pinned` is the version the spec is proven on (`--version V` overrides it). */
export async function crawlGemini(args, pinned) {
  const { version, start } = await crawlSessions(args, pinned);
  return runCrawl({ cli: GEMINI_CRAWL, version, args, start });
}
