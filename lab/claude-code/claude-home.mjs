/**
 * What a lab run gives the real Claude Code before it starts, whoever starts it (the lab's own
 * driver, or a lab daemon through its API): a private HOME with the onboarding done and the
 * dummy key approved, the environment that points it at the scripted server, and a workspace
 * `.mcp.json` with its servers approved (and, optionally, their tools pre-allowed).
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes the private Claude Code config under `<tmp>/home`: onboarding done (unless `onboarded`
 * is false: the CLI then shows its first-run screens), the key pre-approved (unless `approveKey`
 * is false); folder trust is left to the spec's pre_launch_trust.
 * @returns {{ home: string, configDir: string }}
 */
export function prepareHome(tmp, key, version, approveKey = true, onboarded = true) {
  const home = join(tmp, 'home');
  mkdirSync(home, { mode: 0o700 });
  const configDir = join(home, '.claude');
  mkdirSync(configDir, { mode: 0o700 });
  const config = {
    hasCompletedOnboarding: onboarded,
    ...(onboarded ? { lastOnboardingVersion: version } : {}),
    numStartups: 3,
    customApiKeyResponses: { approved: approveKey ? [key.slice(-20)] : [], rejected: [] },
    autoUpdates: false,
  };
  writeFileSync(join(configDir, '.claude.json'), JSON.stringify(config, null, 2), { mode: 0o600 });
  return { home, configDir };
}

/**
 * The environment Claude Code runs in for the lab: the private HOME and config dir, the dummy
 * key, the scripted server, no updater, telemetry or other traffic, and no inherited
 * CLAUDECODE (a lab started from inside Claude Code must not look nested).
 * @param {{ home: string, configDir: string, key: string, serverUrl: string }} where
 * @returns {Record<string, string>}
 */
export function claudeEnv({ home, configDir, key, serverUrl }) {
  return {
    HOME: home,
    CLAUDE_CONFIG_DIR: configDir,
    ANTHROPIC_API_KEY: key,
    ANTHROPIC_BASE_URL: serverUrl,
    ANTHROPIC_AUTH_TOKEN: '',
    ANTHROPIC_MODEL: '',
    CLAUDECODE: '',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    TERM: 'xterm-256color',
  };
}

/**
 * The workspace's `.mcp.json` naming `servers` ({name: {command, args, env}}). `approved` writes
 * what Claude Code 2.1.332 itself persists when a person enables them at its startup dialog
 * (`enabledMcpjsonServers` in the project's `.claude/settings.local.json`); left unapproved, the
 * CLI asks at startup ("New MCP server found in this project" / "N new MCP servers found …").
 * `allow` (tool names such as `mcp__specterm__handoff`) goes to `permissions.allow` there, what
 * "Yes, and don't ask again" persists: those tools then run without a prompt.
 * @param {string} cwd
 * @param {Record<string, { command: string, args: string[], env?: Record<string, string> }>} servers
 * @param {{ approved?: boolean, allow?: string[] }} [options]
 */
export function writeProjectMcp(cwd, servers, { approved = false, allow = [] } = {}) {
  writeFileSync(join(cwd, '.mcp.json'), `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`, { mode: 0o600 });
  if (!approved && allow.length === 0) return;
  const settings = {
    ...(approved ? { enabledMcpjsonServers: Object.keys(servers) } : {}),
    ...(allow.length ? { permissions: { allow } } : {}),
  };
  mkdirSync(join(cwd, '.claude'), { mode: 0o700 });
  writeFileSync(join(cwd, '.claude', 'settings.local.json'), `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
}
