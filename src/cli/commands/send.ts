/**
 * `specterm send <session> "text" [--wait started|idle] [--key K]`: types a message into a session.
 * @module
 */
import { defineCommand } from '../command.js';
import { describeCommand } from '../command-table.js';
import { CliUsageError } from '../errors.js';
import { EXIT_BLOCKED, EXIT_REFUSED, withDaemon } from './daemon-connection.js';

export const sendCommand = defineCommand(
  {
    ...describeCommand('send'),
    positionals: [{ name: '<session>', required: true, help: 'session id or name' }, { name: '<text>', required: true, help: 'the message' }],
    flags: {
      wait: { type: 'string', flag: 'wait', value: 'WHEN', choices: ['accepted', 'started', 'idle'], help: 'answer once accepted (default), the turn started, or the agent is idle again' },
      key: { type: 'string', flag: 'key', value: 'K', help: 'idempotency key: the same key twice never types twice' },
      json: { type: 'boolean', flag: 'json', help: 'print the whole outcome as JSON (with --wait idle: the turn, its tool calls and usage)' },
      timeout: { type: 'number', flag: 'timeout-ms', value: 'MS', min: 0, help: 'give up waiting after this long (default 120000)' },
    },
  },
  ({ flags, positionals }, io) => {
    const [session, text] = [positionals[0]!, positionals[1]!];
    // Bad input is the caller's to fix: said here, before any daemon is looked for.
    if (text.trim() === '') throw new CliUsageError('send', `the message is empty; give the text to type, e.g. specterm send ${session} "run the tests"`, 'CLI_BAD_VALUE');
    return withDaemon('send', io, async (client) => {
      const outcome = await client.call('sendMessage', {
        params: { id: session },
        body: { text, wait: (flags.wait ?? 'accepted') as 'accepted' | 'started' | 'idle', ...(flags.key ? { idempotency_key: flags.key } : {}), ...(flags.timeout !== undefined ? { timeout_ms: flags.timeout } : {}) },
      });
      const status = `${outcome.delivery}${outcome.duplicate ? ' (duplicate: not typed again)' : ''}${outcome.reason ? `: ${outcome.reason}` : ''}\n`;
      if (flags.json) io.stdout.write(JSON.stringify(outcome, null, 2) + '\n');
      else if (outcome.answer) {
        // The answer is what a script reads; how far the message got goes beside it.
        io.stdout.write(outcome.answer.text.endsWith('\n') ? outcome.answer.text : `${outcome.answer.text}\n`);
        io.stderr.write(`specterm send: ${status}`);
      } else io.stdout.write(status);
      if (outcome.blocked_by) {
        if (!flags.json) io.stdout.write(`buttons: ${outcome.blocked_by.buttons.map((b) => `${b.index} ${b.label}`).join(' · ')}\n`);
        return EXIT_BLOCKED;
      }
      return outcome.delivery === 'refused' || outcome.delivery === 'timed_out' ? EXIT_REFUSED : 0;
    });
  },
);
