/**
 * The Kilo Code conformance lab: `npm run lab -- kilocode [options]`.
 *
 * Kilo Code is a fork of OpenCode: the same OpenTUI screen, the same permission block and dialogs,
 * the same provider config (in ~/.config/kilo/kilo.json) and KILO_* where OpenCode reads OPENCODE_*.
 * So this lab is lab/opencode's description with the package, config and environment swapped: the
 * same sessions, scripted replies (lab/opencode/scenarios), screen marks, approval titles and buttons, run by lab/lib/chat-lab.mjs against the
 * REAL CLI under specs/kilocode/spec.json in a real PTY with a private HOME.
 *
 * Options: as every chat lab (--record-to DIR, --accuracy, --scenario NAME[,NAME], --keep,
 * --version V, --verbose). Exit code 0 only if every check passed.
 *
 * Pinned 7.7.7, not the registry's latest 7.8.1: `@kilocode/cli` is a node wrapper whose postinstall
 * installs the native binary from a per-platform package, and the registry this lab reaches has no
 * `@kilocode/cli-linux-x64@7.8.1` (ETARGET; its newest is 7.7.9, which has no `@kilocode/cli`).
 *
 * The provider is a custom `@ai-sdk/openai-compatible` one ("Lab", base URL = the server); the dummy
 * key is in that 0600 file, never in argv or logs. `autoupdate: false` and KILO_DISABLE_AUTOUPDATE
 * stop the self-update; KILO_TELEMETRY_LEVEL=off (PostHog), KILO_DISABLE_MODELS_FETCH,
 * KILO_DISABLE_DEFAULT_PLUGINS, KILO_DISABLE_LSP_DOWNLOAD, KILO_DISABLE_SHARE,
 * KILO_DISABLE_PRESENCE, KILO_DISABLE_SESSION_INGEST, KILO_DISABLE_CLAUDE_CODE and KILO_NO_DAEMON
 * keep it off the network, out of ~/.claude and in one process (the set Kilo's own PTY smoke test
 * sets). Permissions are `ask` for bash and edit, as in the OpenCode lab.
 */
import fs from 'node:fs';
import path from 'node:path';
import { runChatLab } from '../lib/chat-lab.mjs';
import { sleep } from '../lib/lab-kit.mjs';
import { labConfig, OPENCODE, pickerButtons } from '../opencode/lab.mjs';
import { listSession } from '../opencode/list-tool.mjs';
import { promptApprovals, PROMPT_TITLES, promptSessions } from '../opencode/prompt-sessions.mjs';
import { exactModal } from './allow-reject.mjs';
import { SANDBOX_ESCALATION, sandboxEscalationSessions } from './sandbox-escalation.mjs';
import { SKILL_SHELL, skillShellSessions } from './skill-shell.mjs';

export const PINNED_VERSION = '7.7.7';
const MODEL = 'lab-model';

/** A private HOME: the Lab provider, bash/edit permissions on ask, no self-update, no telemetry, no sharing. */
function prepare({ home, work, tmp, serverUrl, session }) {
  // A session's own workspace files (skills), written before the CLI starts.
  session?.setup?.(work);
  const dir = path.join(home, '.config', 'kilo');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // A session's files in the private HOME (a trusted global skill: lab/kilocode/skill-shell.mjs).
  session?.setupHome?.(home);
  const config = labConfig(serverUrl, session, tmp);
  fs.writeFileSync(path.join(dir, 'kilo.json'), JSON.stringify(config, null, 2), { mode: 0o600 });
  return {
    KILO_DISABLE_AUTOUPDATE: '1', KILO_TELEMETRY_LEVEL: 'off', KILO_DISABLE_MODELS_FETCH: '1', KILO_DISABLE_DEFAULT_PLUGINS: '1',
    KILO_DISABLE_LSP_DOWNLOAD: '1', KILO_DISABLE_SHARE: '1', KILO_DISABLE_PRESENCE: '1', KILO_DISABLE_SESSION_INGEST: '1',
    KILO_DISABLE_CLAUDE_CODE: '1', KILO_NO_DAEMON: '1', KILO_ENABLE_QUESTION_TOOL: '1',
  };
}

/**
 * The permission block's title line. Kilo titles a shell command by the tool call's `description`
 * argument (`# Create build/out.txt`) where OpenCode writes `# Shell command`.
 */
const TITLES = { shell: 'Create build/out.txt', edit: OPENCODE.approvals.edit.title };
/** The prompt sessions (lab/opencode/prompt-sessions.mjs) with Kilo's titles; every Kilo Reject opens the feedback block. */
const PROMPTS = promptSessions({
  cliName: 'Kilo', feedbackOnReject: true, titles: { shell: TITLES.shell }, skillsDir: '.kilo',
  // Kilo's dialogs at 80×24. Its /sessions draws the current row and hint row where the picker rule
  // sees them (state picker); its one session is titled with the time it was made (`New session -
  // <ISO time>`), unknown before the run, so the lab expects no buttons there (the committed
  // expectation pins the recorded label; the `Today` heading is left out).
  // The other dialogs are menus, unless the home screen's random tip under them ('● Tip … ctrl+x l')
  // gives the picker rule its `●` and `ctrl+` hint: either state, kind picker (README.md).
  menus: {
    sessions: { title: 'Sessions (current worktree)', state: 'picker', buttons: null },
    agents: { title: 'Select agent', state: ['menu', 'picker'], buttons: ['code', 'ask', 'debug', 'orchestrator', 'plan'] },
    themes: { title: 'Themes', state: ['menu', 'picker'], buttons: ['github', 'gruvbox', 'kanagawa', 'kilo', 'kilo-v1', 'lucent-orng'] },
    themes60: { title: 'Themes', state: ['menu', 'picker'], buttons: ['gruvbox', 'kanagawa', 'kilo', 'kilo-v1'] },
    commands: { title: 'Commands', state: ['menu', 'picker'], buttons: ['Switch model', 'Hide tips', 'Plugins'] },
    // MCPs and Connect: buttons known wrong (README.md), so title and kind only.
    mcps: { title: 'MCPs', state: ['menu', 'picker'], buttons: null },
    timeline: { title: 'Timeline', state: ['menu', 'picker'], buttons: ['please explain rate limits', 'say hello'] },
    fork: { title: 'Fork session', state: ['menu', 'picker'], buttons: ['Full session', 'please explain rate limits', 'say hello'] },
    connect: { title: 'Connect a provider', state: ['menu', 'picker'], buttons: null },
    variants: { title: 'Select variant', state: ['menu', 'picker'], buttons: ['Default', 'high', 'low'] },
    skills: { title: 'Skills', state: ['menu', 'picker'], buttons: null },
  },
});
/** Kilo's TUI draws the failed `list` call as a bare tool row (no error text; lab/opencode/list-tool.mjs). */
const LIST = listSession(/⚙ list \[path=/);
const promptNames = new Set([...PROMPTS.map((s) => s.name), LIST.name]);
const renamed = new Map(Object.entries(TITLES).map(([kind, title]) => [OPENCODE.approvals[kind].title, title]));
/** A session's expected modal with Kilo's title in place of OpenCode's. */
/**
 * Kilo's model dialog at 80×24: its unnamed "Auto" group (no header) lists Auto Free / Frontier /
 * Small above the "Lab" group, and the whole list fits, so nothing scrolls.
 */
const PICKER_OPTIONS = ['Auto Free', 'Auto Frontier', 'Auto Small', 'Lab Model'];
const withKiloPicker = (step) => (step.state === 'picker' ? { ...step, modal: { ...step.modal, buttons: pickerButtons(PICKER_OPTIONS) } } : step);
const retitle = (step) => (step.modal?.title && renamed.has(step.modal.title) ? { ...step, modal: { ...step.modal, title: renamed.get(step.modal.title) } } : step);
/**
 * Kilo's Reject does not end the turn: it opens a second block, `△ Reject permission` / `Tell Kilo
 * what to do differently` (a text input, `enter confirm  esc cancel`). The denial sessions press
 * Enter there (no feedback), which ends the turn as OpenCode's Reject does.
 */
async function confirmReject(c) {
  const shown = await c.s.waitForScreen(/Reject permission/, 30_000).then(() => true, () => false);
  c.check('the "Reject permission" feedback block after Reject', shown);
  if (!shown) return;
  await sleep(300);
  const r = c.s.driver.dispatch({ kind: 'pty_write', data: '\r' });
  c.check('Enter on "Reject permission" accepted', r.ok, r.reason ?? '');
}
const denial = (kind, check) => async (c) => {
  await c.prompt(kind === 'shell' ? 'please create the file' : 'write the notes');
  await c.approval(3, kind);
  await confirmReject(c);
  await c.deniedEnd();
  check(c);
};
const DENIALS = {
  'approve-no': denial('shell', (c) => c.check('the command did not run', !fs.existsSync(path.join(c.work, 'build')))),
  'edit-no': denial('edit', (c) => c.check('notes.txt was not written', !fs.existsSync(path.join(c.work, 'notes.txt')))),
};
/** The feedback block as the spec reads it (state reject_feedback, kind confirm: never auto-answered). */
const FEEDBACK_STEP = { state: 'reject_feedback', status: 'approval', modal: { title: 'Reject permission', kind: 'confirm', buttons: ['confirm', 'cancel'] } };
/**
 * Kilo's config-protected request: an edit of a Kilo config file (.kilo/kilo.json in the workspace;
 * a bare kilo.json counts only at the worktree root, and the lab's workspace is no git worktree) asks
 * even where edits are allowed, with the line `Config file edits always require approval` and no
 * `Allow always`. Reject (2), then Enter on the feedback block; the file stays unwritten.
 */
const CONFIG_EDIT = { title: 'Edit .kilo/kilo.json', buttons: ['Allow once', 'Reject'] };
const configProtected = {
  name: 'config-edit-no', cols: 80, rows: 24,
  description: 'a write of the workspace\'s .kilo/kilo.json → the permission block says "Config file edits always require approval" (Allow once / Reject, no Allow always) → 2 (Reject) → Enter on "Reject permission" → idle, nothing written',
  run: async (c) => {
    await c.prompt('please edit the kilo config');
    const line = await c.s.waitForScreen(/Config file edits always require approval/, 150_000).then(() => true, () => false);
    c.check('the permission block says "Config file edits always require approval"', line, c.s.driver.snapshot());
    await c.approval(2, 'config');
    await confirmReject(c);
    await c.deniedEnd();
    c.check('.kilo/kilo.json was not written', !fs.existsSync(path.join(c.work, '.kilo', 'kilo.json')));
  },
  expect: { sequence: [{ state: 'starting' }, { state: 'idle' }, { state: 'busy' }, { state: 'approval', status: 'approval', modal: { title: CONFIG_EDIT.title, kind: 'approval', buttons: CONFIG_EDIT.buttons } }, FEEDBACK_STEP, { state: 'idle', modal: null }], final: { state: 'idle' } },
};
/** A denial's expected states: the permission, then the feedback block, then idle. */
const withFeedback = (sequence) => sequence.flatMap((step) => (step.state === 'idle' && step.modal === null ? [FEEDBACK_STEP, step] : [step]));
const kiloSession = (s) => ({
  ...s,
  description: s.description.replaceAll('OpenCode', 'Kilo Code').replace('3 (Reject) →', '3 (Reject) → Enter on "Reject permission" →'),
  run: DENIALS[s.name] ?? s.run,
  expect: { ...s.expect, sequence: (DENIALS[s.name] ? withFeedback : (x) => x)(s.expect.sequence.map(retitle).map(withKiloPicker)), final: retitle(s.expect.final) },
});

/** The Kilo Code description for the shared runner: OpenCode's, with Kilo's package, config, names and titles. */
export const KILOCODE = {
  ...OPENCODE,
  id: 'kilocode', cliName: 'Kilo Code', pkg: '@kilocode/cli', bin: 'kilo', pinnedVersion: PINNED_VERSION,
  models: [MODEL], prepare,
  // Kilo clears its input with Ctrl+C (OpenCode's input_clear); Ctrl+U leaves a command's text typed.
  crawl: { ...OPENCODE.crawl, clearInput: '\u0003' },
  // Kilo's database (kilo.db), OpenCode's format under Kilo's name.
  historyTrees: (home) => [{ from: path.join(home, '.local/share/kilo'), as: '.local/share/kilo' }],
  sessions: [...OPENCODE.sessions.filter((s) => !promptNames.has(s.name)).map(kiloSession), ...PROMPTS, LIST, configProtected, ...skillShellSessions, ...sandboxEscalationSessions],
  picker: { ...OPENCODE.picker, buttons: PICKER_OPTIONS },
  approvals: { ...promptApprovals({ ...PROMPT_TITLES, shell: TITLES.shell }), editReadme: OPENCODE.approvals.editReadme, config: exactModal(CONFIG_EDIT), skillShell: exactModal(SKILL_SHELL), sandbox: exactModal(SANDBOX_ESCALATION), ...Object.fromEntries(Object.entries(TITLES).map(([kind, title]) => [kind, { ...OPENCODE.approvals[kind], title }])) },
  // limits: OpenCode's. Kilo starts faster here (≈17 s to idle vs OpenCode's 20–60 s), but the renderer and the box are the same.
};

/** Entry point for lab/run.mjs. */
export function main(args) {
  return runChatLab(KILOCODE, args);
}
