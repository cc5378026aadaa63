/**
 * The table of sub-commands: each name and summary, and how to load its module. `main` imports
 * a command's module only when that command runs, so `specterm --help`, `list` and `validate`
 * never load the daemon, the driver or the terminal that other commands need (issue 27 item 1:
 * the eager imports cost ~300 ms of every start). A command module takes its name and summary
 * from here with {@link describeCommand}, so the help it generates and the top-level help agree.
 *
 * @module
 */
import type { RegisteredCommand } from './command.js';

/** One row of the table: enough for the top-level help without loading the command. */
export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  /** Imports the command's module. */
  load(): Promise<RegisteredCommand>;
}

const entry = (name: string, summary: string, load: () => Promise<RegisteredCommand>): CommandEntry => ({ name, summary, load });

/** Every sub-command, in help order. */
export const COMMANDS: readonly CommandEntry[] = [
  entry('run', 'Run an agent CLI in this terminal under its spec: keys, paste and resizes pass through; the last row shows the state, the modal and which key answers it. The spec reloads when its file changes.',
    async () => (await import('./commands/run.js')).runCommand),
  entry('record', 'Like run, and write the session as an asciicast v2 recording (output "o", input "i", resizes "r"; file mode 0600) that `specterm replay` and asciinema can play.',
    async () => (await import('./commands/record.js')).recordCommand),
  entry('replay', 'Replay a recording under a spec in virtual time and print every state change (the initial state included).',
    async () => (await import('./commands/replay.js')).replayCommand),
  entry('explain', 'Show why the spec is (not) in a state at one instant of a recording: screen, sections, state, and every transition with per-condition results and countdowns.',
    async () => (await import('./commands/explain.js')).explainCommand),
  entry('test', 'Run spec tests: every specs/<id>/recordings/<name>.cast with a <name>.expect.json is replayed in virtual time and its expectations checked. A failure prints what was expected, what happened, and the explain output at the first mismatch.',
    async () => (await import('./commands/test.js')).testCommand),
  entry('validate', 'Check spec files (or built-in ids) against the adhdev:cli/spec@4 format: every error and warning, per file.',
    async () => (await import('./commands/validate.js')).validateCommand),
  entry('graph', 'Print the state machine of a spec as a Mermaid (default) or Graphviz dot diagram.',
    async () => (await import('./commands/graph.js')).graphCommand),
  entry('schema', 'Print the JSON Schema of the adhdev:cli/spec@4 format.',
    async () => (await import('./commands/schema.js')).schemaCommand),
  entry('list', 'List the built-in specs: binary, whether it is on PATH, the version found, and whether cli_version_range claims it.',
    async () => (await import('./commands/list.js')).listCommand),
  entry('attach', 'Show a daemon session\'s live terminal here: type to it, Ctrl-\\ to detach; with --read-only just watch.',
    async () => (await import('./commands/attach.js')).attachCommand),
  entry('serve', 'Run the daemon: agent sessions that outlive it, one HTTP + WebSocket API on 127.0.0.1 with tokens (docs/daemon.md); --lan serves it over HTTPS to phones on the local network.',
    async () => (await import('./commands/serve.js')).serveCommand),
  entry('hub', 'Run a fleet\'s hub: one HTTP + WebSocket API and dashboard for every node on a NATS server (`specterm serve --nats`), with device tokens every node accepts (docs/fleet.md).',
    async () => (await import('./commands/hub.js')).hubCommand),
  entry('ls', 'List the daemon\'s sessions: id, name, state, spec, cwd (needs `specterm serve`).',
    async () => (await import('./commands/ls.js')).lsCommand),
  entry('new', 'Start an agent session in the daemon; prints its id.',
    async () => (await import('./commands/new.js')).newCommand),
  entry('send', 'Type a message into a session and print how far it got (queued, typed, turn_started, idle, blocked, refused). Exit 4: the turn waits for a person (the prompt and its buttons are printed).',
    async () => (await import('./commands/send.js')).sendCommand),
  entry('approve', 'Answer a pending approval (by session or approval id; default button: the first), or list them with --list.',
    async () => (await import('./commands/approve.js')).approveCommand),
  entry('logs', 'Print a session\'s state history (from the daemon\'s database), oldest first.',
    async () => (await import('./commands/logs.js')).logsCommand),
  entry('kill', 'End a session\'s agent; the session stays listed as exited.',
    async () => (await import('./commands/kill.js')).killCommand),
  entry('rm', 'Kill (if running) and remove a session; a worktree with uncommitted changes needs --force.',
    async () => (await import('./commands/kill.js')).rmCommand),
  entry('mute', 'Stop a session\'s notifications (its approvals stay listed); --off notifies again.',
    async () => (await import('./commands/mute.js')).muteCommand),
  entry('token', 'Manage device tokens: create (the secret is printed once), list, revoke (needs the admin token).',
    async () => (await import('./commands/token.js')).tokenCommand),
  entry('pair', 'Print a one-time URL that signs another device (browser, phone) in to the dashboard (needs the admin token).',
    async () => (await import('./commands/pair.js')).pairCommand),
  entry('transcript', 'Print a session\'s conversation as text, from its CLI\'s own history: messages, answers, tool calls, edits, usage.',
    async () => (await import('./commands/transcript.js')).transcriptCommand),
  entry('search', 'Find words in every session\'s transcript.',
    async () => (await import('./commands/transcript.js')).searchCommand),
  entry('resume', 'Start an exited session\'s CLI again on the same conversation (after a reboot or a lost host).',
    async () => (await import('./commands/transcript.js')).resumeCommand),
  entry('mcp', 'Serve the Model Context Protocol on stdio: lets an agent CLI list, start and drive other sessions through the daemon.',
    async () => (await import('./commands/mcp.js')).mcpCommand),
];

/** The table entry named `name`, or undefined. */
export function findCommand(name: string | undefined): CommandEntry | undefined {
  return COMMANDS.find((c) => c.name === name);
}

/**
 * The name and summary of a command, for its module's `defineCommand`.
 *
 * @throws Error when the table has no such command (a programming error caught by the tests).
 */
export function describeCommand(name: string): { name: string; summary: string } {
  const found = findCommand(name);
  if (!found) throw new Error(`command ${name} is not in src/cli/command-table.ts`);
  return { name: found.name, summary: found.summary };
}
