/**
 * The activity line shown while generating:
 * `✻ Pondering… (3s · ↑ 1.2k tokens · esc to interrupt)`.
 * @module
 */
import { Box, Text } from 'ink';
import { formatSpinnerLine, type SpinnerView } from '../transcript.js';

/** The spinner line (one row; the text is built by `formatSpinnerLine`). */
export function SpinnerLine({ spinner }: { spinner: SpinnerView }) {
  const line = formatSpinnerLine(spinner);
  const head = `${spinner.glyph} ${spinner.verb}…`;
  return (
    <Box marginTop={1}>
      <Text wrap="truncate-end">
        <Text color="#d77757">{head}</Text>
        <Text color="gray">{line.slice(head.length)}</Text>
      </Text>
    </Box>
  );
}
