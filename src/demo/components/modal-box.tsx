/**
 * The three numbered modals that replace the input box: folder trust, tool approval
 * (`Bash command`, the description, the command between `╌` rules, `Do you want to proceed?`)
 * and the `/model` picker. All are
 * round-bordered boxes whose first inner line is the title and whose choices read
 * `❯ 1. Label` (cursor row) / `  2. Label`.
 * @module
 */
import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { ModalView } from '../session.js';
import { AGENT_NAME } from '../session.js';

const ACCENT = '#d77757';

function Choices({ options, cursor }: { options: string[]; cursor: number }) {
  return (
    <Box flexDirection="column">
      {options.map((label, i) => (
        <Text key={i} color={i === cursor ? ACCENT : undefined}>
          {i === cursor ? '❯ ' : '  '}
          {i + 1}. {label}
        </Text>
      ))}
    </Box>
  );
}

function Frame({ columns, children, color }: { columns: number; children: ReactNode; color: string }) {
  return (
    <Box borderStyle="round" borderColor={color} flexDirection="column" paddingX={1} width={columns} marginTop={1}>
      {children}
    </Box>
  );
}

/** The modal for `modal`; `columns` is the terminal width. */
export function ModalBox({ modal, columns }: { modal: ModalView; columns: number }) {
  if (modal.kind === 'trust') {
    return (
      <Box flexDirection="column">
        <Frame columns={columns} color="yellow">
          <Text bold>Do you trust the files in this folder?</Text>
          <Text> </Text>
          <Text>{modal.cwd}</Text>
          <Text> </Text>
          <Text>
            {AGENT_NAME} may read, write or execute files in this folder. Only continue if you trust its contents.
          </Text>
          <Text> </Text>
          <Choices options={modal.options} cursor={modal.cursor} />
        </Frame>
        <Box paddingX={3}><Text color="gray">Enter to confirm · Esc to exit</Text></Box>
      </Box>
    );
  }
  if (modal.kind === 'approval') {
    // As Claude Code draws it: the description (the agent's words) above, the command alone
    // between dashed rules, so a spec can tell the consented command from text around it.
    const rule = '╌'.repeat(Math.max(columns - 4, 1));
    return (
      <Frame columns={columns} color={ACCENT}>
        <Text bold>{modal.title}</Text>
        {modal.description !== undefined && <Text color="gray">{modal.description}</Text>}
        <Text color="gray">{rule}</Text>
        <Box flexDirection="column" paddingX={1}>
          <Text>{modal.command}</Text>
        </Box>
        <Text color="gray">{rule}</Text>
        <Text>Do you want to proceed?</Text>
        <Choices options={modal.options} cursor={modal.cursor} />
      </Frame>
    );
  }
  const width = Math.max(...modal.models.map((m) => m.name.length));
  const options = modal.models.map((m) => {
    const desc = m.description === undefined ? '' : `  ${m.description}`;
    return `${m.name.padEnd(width)}${desc}${m.name === modal.active ? ' ✔' : ''}`;
  });
  return (
    <Box flexDirection="column">
      <Frame columns={columns} color={ACCENT}>
        <Text bold>Select model</Text>
        <Text color="gray">Switch between models. Applies to this session.</Text>
        <Text> </Text>
        <Choices options={options} cursor={modal.cursor} />
      </Frame>
      <Box paddingX={3}><Text color="gray">Enter to confirm · Esc to exit</Text></Box>
    </Box>
  );
}
