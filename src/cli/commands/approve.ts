/**
 * `specterm approve <session|approval-id> [button]` and `specterm approve --list`.
 * @module
 */
import { defineCommand } from '../command.js';
import { describeCommand } from '../command-table.js';
import { CliUsageError } from '../errors.js';
import { EXIT_REFUSED, formatTable, withDaemon } from './daemon-connection.js';

export const approveCommand = defineCommand(
  {
    ...describeCommand('approve'),
    positionals: [{ name: '[session|approval-id]', required: false, help: 'session id or name, or an approval id' }, { name: '[button]', required: false, help: 'button index or exact label (default: the first button)' }],
    flags: { list: { type: 'boolean', flag: 'list', help: 'list pending approvals across sessions' } },
  },
  ({ flags, positionals }, io) => withDaemon('approve', io, async (client) => {
    const { approvals } = await client.call('listApprovals');
    if (flags.list) {
      // A person knows sessions by the names they gave them; the id is the fallback.
      const { sessions } = await client.call('listSessions');
      const nameOf = new Map(sessions.map((s) => [s.id, s.name ?? s.id]));
      const rows = approvals.map((a) => [a.id, nameOf.get(a.session_id) ?? a.session_id, a.kind ?? '-', a.title ?? '-', a.buttons.map((b) => `${b.index}:${b.label}`).join(' | ')]);
      io.stdout.write(formatTable([['APPROVAL', 'SESSION', 'KIND', 'TITLE', 'BUTTONS'], ...rows]));
      return 0;
    }
    const target = positionals[0];
    if (!target) throw new CliUsageError('approve', 'name a session or approval id, or pass --list', 'CLI_MISSING_ARGUMENT');
    let approval = approvals.find((a) => a.id === target);
    if (!approval) {
      const session = await client.call('getSession', { params: { id: target } });
      approval = approvals.find((a) => a.session_id === session.id);
    }
    if (!approval) { io.stderr.write(`specterm approve: NO_PENDING_APPROVAL: ${target} has no pending approval (see \`specterm approve --list\`)\n`); return EXIT_REFUSED; }
    const raw = positionals[1];
    const button = raw === undefined ? approval.buttons[0]!.index : /^\d+$/.test(raw) ? Number(raw) : raw;
    const answer = await client.call('answerApproval', { params: { id: approval.id }, body: { button, fingerprint: approval.fingerprint } });
    io.stdout.write(`pressed ${answer.button.index} "${answer.button.label}": ${answer.result}\n`);
    return answer.result === 'cleared' ? 0 : EXIT_REFUSED;
  }),
);
