/**
 * Checks a command's shape before the driver acts on it. Commands arrive from programs
 * (JSON over a socket, a script) so every field is checked; the answer names the field,
 * the value and what was expected.
 */
import { dimensionProblem } from '../terminal/index.js';
import type { RefusalCode } from './events.js';
import { MAX_MESSAGE_BYTES } from './message-sender.js';

/** Why a command is malformed: its refusal code and a reason naming the field. */
export interface CommandProblem {
  code: RefusalCode;
  reason: string;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
  return `${Array.isArray(value) ? 'an array' : typeof value} (${String(JSON.stringify(value)).slice(0, 40)})`;
}

/** The terminal's own limits, so a size the screen or the PTY would refuse is refused here first. */
function sizeProblem(cols: unknown, rows: unknown): string | null {
  return dimensionProblem('cols', cols, 'resize.cols') ?? dimensionProblem('rows', rows, 'resize.rows');
}

/** Returns why `cmd` is malformed, or null when it is well-formed. */
export function validateCommand(cmd: unknown): CommandProblem | null {
  const reason = commandShapeProblem(cmd);
  if (reason !== null) return { code: 'INVALID_COMMAND', reason };
  const c = cmd as Record<string, unknown>;
  if (c.kind === 'resize') {
    const size = sizeProblem(c.cols, c.rows);
    if (size !== null) return { code: 'INVALID_SIZE', reason: size };
  }
  return null;
}

function commandShapeProblem(cmd: unknown): string | null {
  if (!cmd || typeof cmd !== 'object' || Array.isArray(cmd)) return `a command must be an object with a "kind", got ${describe(cmd)}`;
  const c = cmd as Record<string, unknown>;
  switch (c.kind) {
    case 'send_message':
      if (typeof c.text !== 'string') return `send_message.text must be a string, got ${describe(c.text)}`;
      if (c.text.trim() === '') return 'send_message.text is empty; there is nothing to send';
      if (c.bracketedPaste !== undefined && typeof c.bracketedPaste !== 'boolean') return `send_message.bracketedPaste must be a boolean, got ${describe(c.bracketedPaste)}`;
      return null;
    case 'pty_write': {
      if (typeof c.data !== 'string') return `pty_write.data must be a string, got ${describe(c.data)}`;
      // Raw keystrokes get the same bound as a message: the PTY write queue holds all of it.
      const bytes = Buffer.byteLength(c.data, 'utf8');
      return bytes > MAX_MESSAGE_BYTES
        ? `pty_write.data is ${bytes} bytes of UTF-8; at most ${MAX_MESSAGE_BYTES} bytes (1 MiB) are accepted in one write: split it, or send a file's path instead of its content`
        : null;
    }
    case 'click_control':
      return typeof c.control_id === 'string' && c.control_id !== '' ? null : `click_control.control_id must be a non-empty string, got ${describe(c.control_id)}`;
    case 'click_modal_button':
      if (typeof c.index !== 'number' || !Number.isInteger(c.index) || c.index < 0) return `click_modal_button.index must be the button's display number (an integer), got ${describe(c.index)}`;
      if (c.label !== undefined && typeof c.label !== 'string') return `click_modal_button.label must be a string, got ${describe(c.label)}`;
      return null;
    case 'attach_image':
      if (typeof c.blob !== 'string' || c.blob === '') return `attach_image.blob must be non-empty base64, got ${describe(c.blob)}`;
      if (typeof c.mime !== 'string') return `attach_image.mime must be a string such as "image/png", got ${describe(c.mime)}`;
      return null;
    case 'resize': // its bounds are the terminal's: see sizeProblem
    case 'cancel':
    case 'shutdown':
      return null;
    default:
      return `unknown command kind ${describe(c.kind)} (known: send_message, pty_write, click_control, click_modal_button, attach_image, resize, cancel, shutdown)`;
  }
}
