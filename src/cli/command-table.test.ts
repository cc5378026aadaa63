import { describe, expect, it } from 'vitest';
import { COMMANDS, describeCommand } from './command-table.js';
import { formatMainHelp } from './main.js';

describe('the command table', () => {
  it('loads, for every entry, the command of that name whose help opens with the same summary', async () => {
    for (const entry of COMMANDS) {
      const command = await entry.load();
      expect(command.name).toBe(entry.name);
      expect(command.help()).toContain(`\n\n${entry.summary}\n`);
    }
  });

  it('names each command once and lists every one in the top-level help', () => {
    const names = COMMANDS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    const help = formatMainHelp();
    for (const name of names) expect(help).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
  });

  it('refuses to describe a command that is not in the table', () => {
    expect(() => describeCommand('nope')).toThrow(/not in src\/cli\/command-table\.ts/);
  });
});
