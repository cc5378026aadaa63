/**
 * The Demo Agent's Ink tree: finished transcript items in `<Static>` (printed once,
 * scrolling up like Claude Code's), then the live area — streaming items, the spinner,
 * the input box or a modal, and the hint line.
 * @module
 */
import { Box, Static, useStdout } from 'ink';
import { useSyncExternalStore } from 'react';
import { HintLine, InputBox, ShortcutsPanel } from './components/input-box.js';
import { ModalBox } from './components/modal-box.js';
import { SpinnerLine } from './components/spinner-line.js';
import { TranscriptEntry } from './components/transcript-entry.js';
import type { DemoSession } from './session.js';
import type { TranscriptItem } from './transcript.js';

/** Narrowest layout we draw; below this, boxes would not fit their labels at all. */
const MIN_COLUMNS = 20;

/** Lets the host write raw bytes through Ink (which then repaints its live area below them). */
export interface StdoutWriterRef {
  current: ((data: string) => void) | undefined;
}

/**
 * Root component: renders `session`'s view and re-renders on every change.
 * @param writer receives Ink's stdout writer, used to clear the screen without Ink losing track of its output.
 */
export function App({ session, writer }: { session: DemoSession; writer: StdoutWriterRef }) {
  const view = useSyncExternalStore(session.subscribe, session.getView);
  const { stdout, write } = useStdout();
  writer.current = write;
  const columns = Math.max(MIN_COLUMNS, stdout.columns || 80);
  return (
    <>
      {/* A new key re-prints every committed item: used after a full-screen clear. */}
      <Static key={view.epoch} items={view.committed as TranscriptItem[]}>
        {(item) => <TranscriptEntry key={item.id} item={item} cwd={view.cwd} columns={columns} />}
      </Static>
      <Box flexDirection="column" width={columns}>
        {view.live.map((item) => (
          <TranscriptEntry key={item.id} item={item} cwd={view.cwd} columns={columns} />
        ))}
        {view.spinner !== null && <SpinnerLine spinner={view.spinner} />}
        {view.modal !== null && <ModalBox modal={view.modal} columns={columns} />}
        {view.showInput && <InputBox input={view.input} columns={columns} />}
        {view.showInput && (view.shortcutsOpen
          ? <ShortcutsPanel columns={columns} />
          : <HintLine left={view.hint.left} right={view.hint.right} columns={columns} />)}
      </Box>
    </>
  );
}
