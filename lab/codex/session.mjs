/**
 * How the Codex lab starts the real CLI, for its scenarios (lab.mjs) and the crawler
 * (crawl-start.mjs) alike: a fresh private HOME, CODEX_HOME and workspace (mode 0700) under the OS
 * temp dir, the scripted Responses API server, CODEX_HOME/config.toml pointing at it, the spec
 * with the installed binary, a real PTY. The dummy API key is only in the child's environment.
 * @module
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { managedLauncher } from './managed-requirements.mjs';
import { startCodexServer } from './server.mjs';
import { prepareUpdateNotice } from './update-notice.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SPEC_PATH = join(repo, 'specs', 'codex', 'spec.json');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The lab's stdio MCP server (tools deploy_preview, lookup_ticket), for the MCP permission scenarios. */
const MCP_SERVER = join(repo, 'lab', 'lib', 'mcp-stdio-server.mjs');

/** TOML for `[mcp_servers.lab-tools]`: the lab's MCP server, its request log at `mcpLog`. */
function mcpServerToml(mcpLog) {
  return [
    '',
    '[mcp_servers.lab-tools]',
    `command = ${JSON.stringify(process.execPath)}`,
    `args = [${JSON.stringify(MCP_SERVER)}]`,
    `env = { LAB_MCP_LOG = ${JSON.stringify(mcpLog)} }`,
  ];
}

/** Writes CODEX_HOME/config.toml: the lab provider on loopback, approvals on request, sandbox on. */
export function writeCodexConfig(codexHome, serverUrl, scenario, mcpLog) {
  const lines = scenario.no_provider
    ? ['# sign-in scenario: no provider, no credentials']
    : [
        'model = "gpt-5-codex"',
        'model_provider = "lab"',
        // The trust gate shows only while the folder's permissions are not set by the user.
        ...(scenario.trust_gate ? [] : ['approval_policy = "on-request"', 'sandbox_mode = "workspace-write"']),
        '',
        // /tmp (where every lab dir lives) is a writable root by default; without it an edit
        // outside the workspace needs the patch approval.
        '[sandbox_workspace_write]',
        'exclude_slash_tmp = true',
        'exclude_tmpdir_env_var = true',
        // `network_access`: sandboxed commands may use the network (through Codex's proxy when
        // features.network_proxy is on), the network approval scenarios need it.
        ...(scenario.network_access ? ['network_access = true'] : []),
        '',
        '[model_providers.lab]',
        'name = "Specterm lab"',
        `base_url = "${serverUrl}"`,
        'wire_api = "responses"',
        'env_key = "LAB_CODEX_KEY"',
        ...(scenario.mcp ? mcpServerToml(mcpLog) : []),
        // `features`: Codex feature flags a prompt needs (request_permissions_tool offers the
        // request_permissions tool, off by default in 0.171.0).
        ...(scenario.features ? ['', '[features]', ...Object.entries(scenario.features).map(([k, v]) => `${k} = ${JSON.stringify(v)}`)] : []),
      ];
  // The folder trust entry is left to the spec's pre_launch_trust (scheme codex_toml_file).
  writeFileSync(join(codexHome, 'config.toml'), `${lines.join('\n')}\n`, { mode: 0o600 });
}

/**
 * Codex 0.171 starts an app-server daemon from the session's CODEX_HOME that outlives the CLI
 * (two processes of ~180 MB per session). End the ones this scenario started — found by their
 * executable under the scenario's private temp dir, ended by pid — so a lab run leaves nothing.
 */
export function endDaemons(root) {
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let cmd = '';
    try { cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8'); } catch { continue; }
    if (!cmd.startsWith(`${root}/`)) continue;
    try { process.kill(Number(pid), 'SIGTERM'); } catch { /* already gone */ }
  }
}

/**
 * An earlier session in the scenario's private HOME (for the resume picker): the prompt is
 * answered by a server of its own, so the recorded session's ground truth is its own alone.
 */
async function runPriorSession(scenario, { live, spec, cwd, home, codexHome }) {
  const server = await startCodexServer({ scenario: { name: `${scenario.name}-prior`, steps: [{ kind: 'text', text: 'Hello from the earlier session.' }] } });
  writeCodexConfig(codexHome, server.url, scenario, null);
  const s = live.startLiveSession({ spec, cwd, cols: 80, rows: 24, homeDir: home, applyTrust: true, extraEnv: { HOME: home, CODEX_HOME: codexHome, LAB_CODEX_KEY: 'lab-dummy-key-not-secret' } });
  try {
    await s.waitForState('idle', 30_000);
    const deadline = Date.now() + 60_000;
    while (!s.driver.screen.windowTitle && Date.now() < deadline) await sleep(50);
    s.driver.dispatch({ kind: 'pty_write', data: scenario.prior_prompt });
    await s.waitForScreen(new RegExp(`› ${scenario.prior_prompt}`), 20_000);
    await sleep(300);
    s.driver.dispatch({ kind: 'pty_write', data: '\r' });
    await s.waitForScreen(/Hello from the earlier session\./, 30_000);
    await s.waitForState('idle', 15_000);
    await sleep(1000);
  } finally {
    await s.stop();
    await server.close();
  }
}

/**
 * Starts the real Codex CLI under specterm for one `scenario` (its size, files, config and
 * start-up options: trust_gate, update_notice, requirements, prior_prompt, args). `ctx`:
 * `{ binPath, live, verbose }`. The recording goes to `record`, else `castPath` in the session's temp dir `root`;
 * the caller stops `s` and `server`, ends the daemons (`endDaemons(root)`) and removes `root`.
 */
export async function startCodexSession(scenario, { binPath, live, verbose }, { record = null } = {}) {
  const root = mkdtempSync(join(os.tmpdir(), `specterm-lab-codex-${scenario.name}-`));
  const home = join(root, 'home');
  const codexHome = join(home, '.codex');
  const cwd = join(root, 'project');
  mkdirSync(codexHome, { recursive: true, mode: 0o700 });
  mkdirSync(cwd, { mode: 0o700 });
  if (scenario.trust_gate) {
    // Codex asks about trust only for a folder that brings its own settings (they can run code).
    mkdirSync(join(cwd, '.codex'), { mode: 0o700 });
    writeFileSync(join(cwd, '.codex', 'config.toml'), '# lab: a project config, so Codex asks whether to trust the folder\n', { mode: 0o600 });
  }
  // A directory outside the workspace (and its writable roots): a patch there needs approval.
  const outside = join(root, 'outside');
  mkdirSync(outside, { mode: 0o700 });
  const castPath = join(root, `${scenario.name}.cast`);
  const served = JSON.parse(JSON.stringify(scenario).replaceAll('__OUTSIDE__', outside));
  const server = await startCodexServer({ scenario: served, onLog: verbose ? (e) => process.stderr.write(`  server ${JSON.stringify(e)}\n`) : undefined });
  const mcpLog = join(root, 'mcp.log');
  writeCodexConfig(codexHome, server.url, scenario, mcpLog);
  // `update_notice`: a cached update check naming a newer version (update-notice.mjs), offline.
  const update = scenario.update_notice ? prepareUpdateNotice(root, codexHome, scenario.update_notice) : null;
  const spec = JSON.parse(readFileSync(SPEC_PATH, 'utf8'));
  spec.binary = binPath;
  // `requirements`: admin-enforced requirements.toml lines, seen by this session alone
  // (managed-requirements.mjs), e.g. the network section the network approval needs.
  if (scenario.requirements) spec.binary = managedLauncher(root, binPath, scenario.requirements);
  if (scenario.prior_prompt) {
    await runPriorSession(scenario, { live, spec, cwd, home, codexHome });
    endDaemons(root); // its app-server daemon would serve the next session with the old provider
    writeCodexConfig(codexHome, server.url, scenario, mcpLog);
  }
  const s = live.startLiveSession({
    spec,
    specPath: SPEC_PATH,
    cwd,
    cols: scenario.cols ?? 80,
    rows: scenario.rows ?? 24,
    record: record ?? castPath,
    homeDir: home,
    applyTrust: !scenario.trust_gate,
    extraEnv: { HOME: home, CODEX_HOME: codexHome, LAB_CODEX_KEY: 'lab-dummy-key-not-secret', ...update?.env },
    extraArgs: scenario.args ?? [],
  });
  return { s, root, server, mcpLog, update, castPath };
}
