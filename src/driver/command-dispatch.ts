/**
 * Command dispatch: a DashboardCommand checked (shape, then whether the session can take it) and
 * routed to the part of the driver that carries it out — the message sender, the PTY, the modal
 * and control presses, the image attachment, the resize. Every refusal goes through `refuse`,
 * which reports it as a `command_refused` event.
 *
 * @module
 */
import type { DashboardCommand, DispatchResult, RefusalCode } from './events.js';
import type { MessageSender } from './message-sender.js';
import type { ScreenCommands } from './screen-commands.js';
import { validateCommand } from './command-validation.js';

/** Where the session is in its life, as commands see it. */
export interface SessionLife {
  isStarted(): boolean;
  isStopped(): boolean;
  isExited(): boolean;
}

/** The parts a command reaches (the driver's). */
export interface CommandTarget extends SessionLife {
  sender: MessageSender;
  commands: ScreenCommands;
  write(data: string): void;
  resize(cols: number, rows: number): DispatchResult;
  shutdown(): void;
  refuse(command: string, code: RefusalCode, reason: string): DispatchResult;
}

/** Runs a command. Malformed commands and commands after exit are refused with a reason. */
export function dispatchCommand(cmd: DashboardCommand, to: CommandTarget): DispatchResult {
  const invalid = validateCommand(cmd);
  if (invalid) return to.refuse(typeof (cmd as { kind?: unknown })?.kind === 'string' ? (cmd as { kind: string }).kind : 'unknown', invalid.code, invalid.reason);
  if (cmd.kind === 'shutdown') { to.shutdown(); return { ok: true }; }
  const inactive = inactiveRefusal(to, cmd.kind, to.refuse);
  if (inactive) return inactive;
  switch (cmd.kind) {
    case 'send_message': {
      const outcome = to.sender.request({ text: cmd.text, bracketedPaste: cmd.bracketedPaste });
      if (typeof outcome === 'object') return to.refuse('send_message', outcome.code, outcome.reason);
      // Not a command_refused: the sender already reported send_status "dropped".
      return outcome === 'dropped' ? { ok: false, code: 'DUPLICATE_MESSAGE', reason: 'duplicate of a message still being processed' } : { ok: true };
    }
    case 'pty_write': to.write(cmd.data); return { ok: true };
    case 'click_control': return to.commands.clickControl(cmd.control_id, cmd.payload);
    case 'click_modal_button': return to.commands.clickModalButton(cmd.index, cmd.label);
    case 'attach_image': return to.commands.attachImage(cmd.blob, cmd.mime);
    case 'resize': return to.resize(cmd.cols, cmd.rows);
    case 'cancel': to.write('\x03'); return { ok: true };
  }
}

/** The refusal of a command before `start()` or after the session ended, else null. */
export function inactiveRefusal(life: SessionLife, command: string, refuse: CommandTarget['refuse']): DispatchResult | null {
  if (life.isStopped()) {
    return life.isExited()
      ? refuse(command, 'EXITED', 'the agent has exited')
      : refuse(command, 'SHUT_DOWN', 'the session is shut down');
  }
  if (!life.isStarted()) return refuse(command, 'NOT_STARTED', 'the session has not started');
  return null;
}
