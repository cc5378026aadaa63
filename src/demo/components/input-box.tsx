/**
 * The round-bordered input box (`│ ❯ text │`) with a drawn cursor, and the hint line
 * under it (`? for shortcuts` left, the model name right).
 * @module
 */
import { Box, Spacer, Text } from 'ink';
import type { InputBuffer } from '../input-buffer.js';

/** One line of the input with the cursor drawn in inverse video when it sits on this line. */
function InputLine({ line, cursorCol }: { line: string; cursorCol: number | null }) {
  if (cursorCol === null) return <Text wrap="wrap">{line === '' ? ' ' : line}</Text>;
  const chars = Array.from(line.slice(cursorCol));
  const under = chars[0] ?? ' ';
  return (
    <Text wrap="wrap">
      {line.slice(0, cursorCol)}
      <Text inverse>{under}</Text>
      {chars.slice(1).join('')}
    </Text>
  );
}

/** The input box; `columns` is the terminal width (the box spans it). */
export function InputBox({ input, columns }: { input: InputBuffer; columns: number }) {
  const lines = input.text.split('\n');
  let offset = 0;
  return (
    <Box borderStyle="round" borderColor="gray" flexDirection="column" paddingX={1} width={columns} marginTop={1}>
      {lines.map((line, i) => {
        const start = offset;
        offset += line.length + 1;
        const onLine = input.cursor >= start && input.cursor <= start + line.length;
        return (
          <Box key={i} flexDirection="row">
            <Text>{i === 0 ? '❯ ' : '  '}</Text>
            <Box flexGrow={1}>
              <InputLine line={line} cursorCol={onLine ? input.cursor - start : null} />
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}

/** The hint row under the input box. */
export function HintLine({ left, right, columns }: { left: string; right: string; columns: number }) {
  return (
    <Box width={columns} paddingX={2}>
      <Text color="gray">{left}</Text>
      <Spacer />
      <Text color="gray">{right}</Text>
    </Box>
  );
}

/** The `?` shortcuts panel that replaces the hint row. */
export function ShortcutsPanel({ columns }: { columns: number }) {
  const rows = [
    ['/ for commands', 'esc to interrupt'],
    ['ctrl+j for newline', 'ctrl+c to clear input'],
    ['/model to switch models', 'ctrl+c twice to exit'],
  ];
  return (
    <Box flexDirection="column" width={columns} paddingX={2}>
      {rows.map(([a, b], i) => (
        <Box key={i}>
          <Box width={30}><Text color="gray">{a}</Text></Box>
          <Text color="gray">{b}</Text>
        </Box>
      ))}
    </Box>
  );
}
