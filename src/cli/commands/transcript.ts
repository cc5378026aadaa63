/**
 * `specterm transcript <session> [--json] [--last N]`, `specterm search <text> [--json]` and
 * `specterm resume <session>`: the agent's work as text, from each CLI's own history
 * (docs/transcripts.md).
 * @module
 */
import type { Transcript, Turn } from '../../protocol/index.js';
import { defineCommand } from '../command.js';
import { describeCommand } from '../command-table.js';
import { formatTable, withDaemon } from './daemon-connection.js';

/** One turn as a person reads it: the message, what the agent said, the tools it ran. */
export function formatTurn(turn: Turn): string {
  const lines: string[] = [];
  if (turn.user) lines.push(`> ${turn.user.text.split('\n').join('\n> ')}`, '');
  for (const item of turn.items) {
    if (item.kind === 'text') lines.push(item.text, '');
    else {
      lines.push(`[${item.name}${item.status === 'ok' ? '' : ` · ${item.status}`}] ${JSON.stringify(item.input).slice(0, 200)}`);
      if (item.output) lines.push(item.output.split('\n').slice(0, 20).map((l) => `  ${l}`).join('\n'));
      for (const edit of item.edits ?? []) lines.push(edit.diff);
      lines.push('');
    }
  }
  if (turn.usage) lines.push(`(${turn.usage.input_tokens} in, ${turn.usage.output_tokens} out${turn.usage.cost_usd !== undefined ? `, $${turn.usage.cost_usd.toFixed(4)}` : ''})`, '');
  return lines.join('\n');
}

function formatTranscript(t: Transcript): string {
  const source = t.source.kind === 'native' ? `the CLI's own history (${t.source.format})` : 'the screen';
  const warnings = t.warnings.map((w) => `warning: ${w.code} ×${w.count}: ${w.message}`);
  return [`# from ${source}${t.native_session_ids.length ? `, conversation ${t.native_session_ids.join(' → ')}` : ''}`, '', ...t.turns.map(formatTurn), ...warnings].join('\n') + '\n';
}

export const transcriptCommand = defineCommand(
  {
    ...describeCommand('transcript'),
    positionals: [{ name: '<session>', required: true, help: 'session id or name' }],
    flags: {
      json: { type: 'boolean', flag: 'json', help: 'the transcript as JSON (turns, tool calls, edits, usage)' },
      last: { type: 'number', flag: 'last', value: 'N', min: 1, help: 'only the last N turns' },
    },
  },
  ({ flags, positionals }, io) => withDaemon('transcript', io, async (client) => {
    const { transcript } = await client.call('getTranscript', { params: { id: positionals[0]! }, query: flags.last !== undefined ? { last: flags.last } : {} });
    if (flags.json) io.stdout.write(JSON.stringify(transcript, null, 2) + '\n');
    else if (!transcript) io.stderr.write(`specterm transcript: ${positionals[0]} keeps no transcript: its spec names no history this daemon reads\n`);
    else io.stdout.write(formatTranscript(transcript));
    return 0;
  }),
);

export const searchCommand = defineCommand(
  {
    ...describeCommand('search'),
    positionals: [{ name: '<text>', required: true, help: 'the words to find' }],
    flags: { json: { type: 'boolean', flag: 'json', help: 'the hits as JSON' }, limit: { type: 'number', flag: 'limit', value: 'N', min: 1, help: 'at most N hits (default 50)' } },
  },
  ({ flags, positionals }, io) => withDaemon('search', io, async (client) => {
    const { hits, unanswered } = await client.call('searchTranscripts', { query: { q: positionals[0]!, ...(flags.limit !== undefined ? { limit: flags.limit } : {}) } });
    if (flags.json) io.stdout.write(JSON.stringify(hits, null, 2) + '\n');
    else if (hits.length === 0) io.stderr.write(`specterm search: nothing found for "${positionals[0]}"\n`);
    // Through a hub, a hit names its session by fleet id (<node>_<id>), which every command takes.
    else io.stdout.write(formatTable([['SESSION', 'TURN', 'WHO', 'TEXT'], ...hits.map((h) => [h.node ? `${h.node}_${h.session_id}` : h.session_id, String(h.turn_index), h.role, h.snippet.replace(/\s+/g, ' ')])]));
    for (const u of unanswered ?? []) io.stderr.write(`specterm search: node '${u.node}' did not answer (last heard ${new Date(u.since).toLocaleString()}); its sessions were not searched\n`);
    return 0;
  }),
);

export const resumeCommand = defineCommand(
  { ...describeCommand('resume'), positionals: [{ name: '<session>', required: true, help: 'session id or name' }], flags: {} },
  ({ positionals }, io) => withDaemon('resume', io, async (client) => {
    const session = await client.call('resumeSession', { params: { id: positionals[0]! } });
    io.stdout.write(`resumed ${session.name ?? session.id} (${session.id}) on conversation ${session.native_session_id}\n`);
    return 0;
  }),
);
