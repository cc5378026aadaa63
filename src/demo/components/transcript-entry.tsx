/**
 * Renders one transcript item the way Claude Code does: `> user`, `⏺ answer`,
 * `⏺ Bash(cmd)` with a `⎿` output block, `⎿  result` lines and `✻ Worked for 4s`.
 * @module
 */
import { Box, Text } from 'ink';
import { formatWorkedLine, wrapWords, type ToolItem, type TranscriptItem } from '../transcript.js';
import { AGENT_NAME } from '../session.js';

/** Output lines shown before the `… +N lines` fold. */
const MAX_OUTPUT_LINES = 10;
const FOLDED_OUTPUT_LINES = 8;

const ACCENT = '#d77757';

/** The welcome box. */
function Banner({ cwd, columns }: { cwd: string; columns: number }) {
  return (
    <Box borderStyle="round" borderColor={ACCENT} flexDirection="column" paddingX={1} width={Math.min(columns, 62)}>
      <Text>
        <Text color={ACCENT}>✻</Text> Welcome to <Text bold>{AGENT_NAME}</Text>!
      </Text>
      <Text> </Text>
      <Text color="gray">  /help for help, /model to switch models</Text>
      <Text> </Text>
      <Text color="gray">  cwd: {cwd}</Text>
    </Box>
  );
}

/** `⎿  first line` then further lines indented under it. */
function ResultLines({ lines, color }: { lines: string[]; color?: string }) {
  return (
    <Box flexDirection="column">
      {lines.map((line, i) => (
        <Box key={i} flexDirection="row">
          <Text color="gray">{i === 0 ? '  ⎿  ' : '     '}</Text>
          <Text color={color} wrap="wrap">{line === '' ? ' ' : line}</Text>
        </Box>
      ))}
    </Box>
  );
}

function ToolEntry({ item }: { item: ToolItem }) {
  let lines: string[] = [];
  if (item.status === 'running') lines = ['Running…'];
  if (item.status === 'done') {
    lines = item.output.length === 0 ? ['(No content)'] : item.output;
    if (lines.length > MAX_OUTPUT_LINES) {
      lines = [...lines.slice(0, FOLDED_OUTPUT_LINES), `… +${lines.length - FOLDED_OUTPUT_LINES} lines (ctrl+r to expand)`];
    }
  }
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text>
        <Text color={item.status === 'done' ? 'green' : undefined}>⏺ </Text>
        <Text bold>{item.name}</Text>({item.command})
      </Text>
      {lines.length > 0 && <ResultLines lines={lines} color={item.status === 'running' ? 'gray' : undefined} />}
    </Box>
  );
}

/** One transcript item; `columns` is the terminal width. */
export function TranscriptEntry({ item, cwd, columns }: { item: TranscriptItem; cwd: string; columns: number }) {
  switch (item.kind) {
    case 'banner':
      return <Banner cwd={cwd} columns={columns} />;
    case 'user':
      return (
        <Box flexDirection="column" marginTop={1}>
          {item.text.split('\n').map((line, i) => (
            <Text key={i} color="gray">{i === 0 ? '> ' : '  '}{line}</Text>
          ))}
        </Box>
      );
    case 'assistant':
      return (
        <Box flexDirection="column" marginTop={1}>
          {wrapWords(item.text.trimEnd(), Math.max(10, columns - 2)).map((row, i) => (
            <Text key={i}>{i === 0 && !item.continuation ? '⏺ ' : '  '}{row}</Text>
          ))}
        </Box>
      );
    case 'tool':
      return <ToolEntry item={item} />;
    case 'result':
      return <ResultLines lines={item.text.split('\n')} color={item.tone === 'error' ? 'red' : item.tone === 'dim' ? 'gray' : undefined} />;
    case 'worked':
      return (
        <Box marginTop={1}>
          <Text color="gray">{formatWorkedLine(item.seconds)}</Text>
        </Box>
      );
  }
}
