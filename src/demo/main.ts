#!/usr/bin/env node
/**
 * Entry point of the Demo Agent (`node dist/demo/main.js [options]`): parses argv, loads
 * the scenario, decides whether the folder needs the trust prompt, then runs the TUI.
 * Stand-alone: imports nothing outside `src/demo`.
 * @module
 */
import { readFileSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { formatUsage, parseDemoArgs } from './cli-options.js';
import { DemoHistory, historyDir, readHistoryItems } from './history.js';
import { DEFAULT_SCENARIO_JSON } from './default-scenario.js';
import { parseScenario, parseScenarioText, type Scenario } from './scenario.js';
import { isFolderTrusted, resolveSettingsPath } from './trust-store.js';
import { DEMO_AGENT_VERSION } from './version.js';

/** Exit code for bad arguments or a bad scenario file (as in BSD sysexits EX_USAGE). */
const EXIT_USAGE = 2;

function fail(message: string): number {
  process.stderr.write(`demo-agent: ${message}\n`);
  return EXIT_USAGE;
}

function loadScenario(path: string | undefined): { scenario: Scenario } | { errors: string[] } {
  if (path === undefined) {
    const result = parseScenario(DEFAULT_SCENARIO_JSON);
    return result.ok ? { scenario: result.scenario } : { errors: result.errors };
  }
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { errors: [`cannot read scenario file ${path}: ${(error as Error).message}; check the --scenario path`] };
  }
  const result = parseScenarioText(text, path);
  return result.ok ? { scenario: result.scenario } : { errors: result.errors };
}

async function main(argv: string[]): Promise<number> {
  const parsed = parseDemoArgs(argv);
  if (!parsed.ok) return fail(parsed.error);
  const options = parsed.options;
  if (options.help) {
    process.stdout.write(formatUsage());
    return 0;
  }
  if (options.version) {
    process.stdout.write(`${DEMO_AGENT_VERSION} (Demo Agent)\n`);
    return 0;
  }
  // Raw mode first: importing Ink takes about a second, and keys typed meanwhile must
  // neither be echoed by the tty's cooked mode nor wait for a newline.
  if (process.stdin.isTTY) process.stdin.setRawMode(true);
  const loaded = loadScenario(options.scenarioPath);
  if ('errors' in loaded) {
    if (process.stdin.isTTY) process.stdin.setRawMode(false);
    return fail(`invalid scenario:\n  ${loaded.errors.join('\n  ')}`);
  }
  let cwd: string;
  try {
    cwd = realpathSync(process.cwd());
  } catch {
    cwd = resolve(process.cwd());
  }
  const settingsPath = resolveSettingsPath(options.settingsPath, process.env);
  const showTrustPrompt = options.trustPrompt && !isFolderTrusted(settingsPath, cwd);
  if (process.stdout.isTTY) {
    // Ink's is-in-ci check (evaluated when ink is first imported) disables live rendering
    // when CI is set; on a real terminal the demo is always interactive.
    delete process.env.CI;
    delete process.env.CONTINUOUS_INTEGRATION;
  }
  const dir = historyDir(process.env);
  const resumed = options.resume === undefined ? { items: [] } : readHistoryItems(dir, options.resume);
  if ('error' in resumed) {
    if (process.stdin.isTTY) process.stdin.setRawMode(false);
    return fail(resumed.error);
  }
  // A history is kept when asked for (an id, a resume) or when the agent has a home of its own:
  // a plain run leaves nothing behind in ~/.demo-agent.
  const keep = options.resume !== undefined || options.sessionId !== undefined || Boolean(process.env.DEMO_AGENT_HOME);
  const history = keep ? new DemoHistory(dir, options.resume ?? options.sessionId) : undefined;
  history?.open(cwd, DEMO_AGENT_VERSION);
  const { runTui } = await import('./tui.js');
  const code = await runTui({
    scenario: loaded.scenario,
    speed: options.speed,
    seed: options.seed,
    cwd,
    showTrustPrompt,
    focusGated: options.focusGated,
    freezeOnFocusLoss: options.freezeOnFocusLoss,
    settingsPath,
    history,
    restored: resumed.items,
  });
  if (history) process.stdout.write(`Resume this session with: demo-agent --resume ${history.sessionId}\n`);
  return code;
}

main(process.argv.slice(2)).then(
  (code) => {
    // Exit once stdout drained, so the final frame and the mode resets reach the terminal.
    process.stdout.write('', () => process.exit(code));
  },
  (error: unknown) => {
    process.stdout.write('\u001b[?2004l\u001b[?1004l\u001b[?25h');
    process.stderr.write(`demo-agent: internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exit(70);
  },
);
