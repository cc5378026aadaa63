/**
 * How the Gemini CLI lab starts the real CLI, for its scripted sessions (lab.mjs) and the crawler
 * (crawl-start.mjs) alike: a private HOME and workspace in a fresh temp dir, the scripted Gemini
 * API server with the `basic` scenario, the spec with the installed binary, a real PTY.
 * @module
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { historyLaunch } from '../lib/copy-history.mjs';
import { startGeminiServer } from './server.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A private HOME: settings with API-key auth, no telemetry, no update checks (plus the session's own `settings` and workspace `files`). Trust is left to pre_launch_trust. */
export function prepareHome(tmp, def) {
  const home = path.join(tmp, 'home');
  // <tmp>/lab/work: a fixed parent name, so the trust dialog's "Trust parent folder (lab)" is predictable.
  const work = path.join(tmp, 'lab', 'work');
  fs.mkdirSync(path.join(home, '.gemini'), { recursive: true, mode: 0o700 });
  fs.mkdirSync(work, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(work, 'README.md'), '# lab workspace\n');
  const extra = def.settings?.(work) ?? {};
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    ...extra,
    general: { disableAutoUpdate: true, disableUpdateNag: true, ...extra.general },
  };
  for (const [rel, text] of Object.entries(def.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(work, rel)), { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(work, rel), text, { mode: 0o600 });
  }
  fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify(settings, null, 2), { mode: 0o600 });
  return { home, work };
}

/**
 * Starts the real Gemini CLI under specterm for one session `def` (`{ name, cols, rows, settings?,
 * files?, applyTrust? }`). `ctx`: `{ binPath, specMod, liveMod, scenarios }`; `record`: the
 * asciicast path (default: in the temp dir); `history`: start it with a session id of our own
 * (for --history-to). The caller stops `s` and `server` and removes `tmp`.
 */
export async function startGeminiSession(def, { binPath, specMod, liveMod, scenarios }, { record = null, history = false } = {}) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `specterm-lab-gemini-${def.name}-`));
  fs.chmodSync(tmp, 0o700);
  const { home, work } = prepareHome(tmp, def);
  // A file-writing tool wants an absolute path: the scenario says __WORK__.
  const scenario = JSON.parse(JSON.stringify(scenarios.basic).replaceAll('__WORK__', work));
  const server = await startGeminiServer({ scenario, logFile: path.join(tmp, 'server.log') });
  const loaded = specMod.loadSpecRef(path.join(repo, 'specs', 'gemini', 'spec.json'));
  if (!loaded.ok) throw new Error(`specs/gemini/spec.json does not load: ${loaded.errors.join('; ')}`);
  const spec = { ...loaded.spec, binary: binPath };
  const startedAt = Date.now();
  const launch = history ? historyLaunch(spec) : { id: null, args: [] };
  const s = liveMod.startLiveSession({
    spec, cwd: work, cols: def.cols, rows: def.rows, record: record ?? path.join(tmp, `${def.name}.cast`), applyTrust: def.applyTrust ?? true, homeDir: home, extraArgs: launch.args,
    extraEnv: { HOME: home, GEMINI_API_KEY: 'lab-dummy-key', GOOGLE_GEMINI_BASE_URL: server.url, TERM: 'xterm-256color', COLORTERM: 'truecolor', NO_BROWSER: '1' },
  });
  return { s, tmp, home, work, server, launch, startedAt };
}
