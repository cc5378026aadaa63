/**
 * How the Claude Code lab starts the real CLI, for its scenarios (lab.mjs) and the crawler
 * (crawl-start.mjs) alike: a fresh private temp dir (mode 0700) with HOME and the workspace, the
 * scenario's files and `.mcp.json`, a random dummy key (only in the child's environment), the
 * scripted Messages API server, and the spec in a real PTY.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { claudeEnv, prepareHome, writeProjectMcp } from './claude-home.mjs';
import { startServer } from './server.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SPEC_ID = 'claude-code';

/** The spec as the lab runs it: the built-in file with the binary pointed at the cached install. */
export function loadSpec(binPath) {
  const spec = JSON.parse(readFileSync(join(repo, 'specs', SPEC_ID, 'spec.json'), 'utf8'));
  return { ...spec, binary: binPath };
}

/** The lab's stdio MCP server (lab/lib/mcp-stdio-server.mjs), which scenarios with `mcp` configure. */
const MCP_SERVER = join(repo, 'lab', 'lib', 'mcp-stdio-server.mjs');

/**
 * A scenario's `mcp: { servers: [names], approved }`: the workspace's `.mcp.json` names the lab's
 * stdio MCP server under each name (each logging its JSON-RPC requests to `logFile`), approved
 * or left for the CLI's startup dialog (claude-home.mjs writeProjectMcp).
 */
function writeMcpConfig(cwd, mcp, logFile) {
  const servers = Object.fromEntries(mcp.servers.map((name) => [name, { command: process.execPath, args: [MCP_SERVER], env: { LAB_MCP_LOG: logFile } }]));
  writeProjectMcp(cwd, servers, { approved: mcp.approved });
}

/**
 * Prepares one run of scenario `sc` at `size` (`ctx`: `{ spec, version }`; `variant`: extra
 * environment, the monochrome runs) and starts its server; `open(record, args)` then starts the
 * CLI, as often as the scenario needs (earlier sessions in the same HOME). The caller stops the
 * sessions and `server` and removes `tmp`.
 */
export async function prepareSession(sc, size, ctx, variant = null) {
  const { startLiveSession } = await import(pathToFileURL(join(repo, 'dist', 'harness', 'live-session.js')).href);
  const tmp = mkdtempSync(join(os.tmpdir(), 'ccl-'));
  const cwd = join(tmp, 'w');
  mkdirSync(cwd, { mode: 0o700 });
  const realCwd = realpathSync(cwd);
  for (const [name, content] of Object.entries(sc.files ?? {})) writeFileSync(join(realCwd, name), content, { mode: 0o600 });
  const mcpLog = join(tmp, 'mcp.log');
  if (sc.mcp) writeMcpConfig(realCwd, sc.mcp, mcpLog);
  const key = `sk-ant-lab-${randomBytes(24).toString('hex')}`;
  const { home, configDir } = prepareHome(tmp, key, ctx.version, sc.unapproved_key !== true, sc.onboarding !== true);
  const server = await startServer({ scenario: sc, cwd: realCwd });
  // The earlier sessions start plainly: the scenario's `args` (e.g. --resume) are for the recorded one.
  const open = (record, args = sc.args ?? []) => startLiveSession({
    spec: ctx.spec,
    cwd: realCwd,
    cols: size.cols,
    rows: size.rows,
    record,
    homeDir: home,
    extraArgs: args,
    // An untrusted scenario leaves the folder untrusted so the CLI shows its trust dialog.
    applyTrust: sc.untrusted !== true,
    extraEnv: {
      ...claudeEnv({ home, configDir, key, serverUrl: server.url }),
      ...(sc.env ?? {}),
      ...(variant?.env ?? {}),
    },
  });
  return { tmp, realCwd, home, configDir, server, mcpLog, open };
}

/**
 * Ends what a run's Claude Code left running after it exited — a resumed or forked session goes
 * on under Claude Code's own background daemon (`claude daemon run`, `bg-pty-host`) — found by
 * the run's private HOME in their environment and ended by pid: SIGTERM, then SIGKILL after 5 s.
 */
export async function endLeftovers(tmp) {
  const mark = `HOME=${join(tmp, 'home')}\0`;
  const ours = () => readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number).filter((pid) => {
    try { return readFileSync(`/proc/${pid}/environ`, 'latin1').includes(mark); } catch { return false; }
  });
  const signal = (pids, sig) => { for (const pid of pids) { try { process.kill(pid, sig); } catch { /* already gone */ } } };
  signal(ours(), 'SIGTERM');
  for (const until = Date.now() + 5000; ours().length && Date.now() < until;) await new Promise((r) => setTimeout(r, 200));
  signal(ours(), 'SIGKILL');
}
