/**
 * A built-in CLI's real approval screen, replayed from its recording through the real terminal
 * emulator, driver and spec, and hostile variants of it: the recording cut where the approval
 * stands, then bytes appended that repaint rows of that very screen (the CLI's layout kept),
 * fed through the same emulator + driver + spec. What a policy would decide is read the way the
 * daemon reads it (`readModalSubject`, `decideApproval`).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ModalSubject } from '../../src/core/eval/extract-subject.js';
import type { CliSpecV4 } from '../../src/core/spec/types.js';
import { decideApproval, type ApprovalPolicy, type PolicyDecision } from '../../src/daemon/approval-policy.js';
import { readModalSubject } from '../../src/daemon/approval-subject.js';
import type { FsmDriver } from '../../src/driver/fsm-driver.js';
import { replaySession } from '../../src/harness/replay-session.js';
import { parseAsciicast, type Asciicast } from '../../src/recording/index.js';

const SPECS = path.resolve(import.meta.dirname, '../../specs');
/** How long after the approval first shows the screen is taken (its last repaint has landed). */
const SETTLE_MS = 300;

export interface ApprovalScreen {
  cli: string;
  recording: string;
  spec: CliSpecV4;
  /** The recording up to the moment the approval stands (nothing after: no answer, no next screen). */
  cast: Asciicast;
  /** Recording time (ms) of that moment. */
  atMs: number;
}

/** The recording cut at its first `approval` modal (plus {@link SETTLE_MS}), or null when it shows none. */
export function approvalScreen(cli: string, recording: string): ApprovalScreen | null {
  const spec = JSON.parse(fs.readFileSync(path.join(SPECS, cli, 'spec.json'), 'utf8')) as CliSpecV4;
  const cast = parseAsciicast(fs.readFileSync(path.join(SPECS, cli, 'recordings', `${recording}.cast`), 'utf8'));
  let first: number | null = null;
  const probe = replaySession({ cast, spec, onEvent: (ev, at) => { if (first === null && ev.kind === 'state_changed' && ev.modal?.kind === 'approval') first = at; } });
  probe.driver.shutdown();
  if (first === null) return null;
  const atMs = (first as number) + SETTLE_MS;
  const events = cast.events.filter((e) => e.t * 1000 <= atMs && e.type !== 'i');
  return { cli, recording, spec, cast: { header: cast.header, events }, atMs };
}

/** What the daemon would see of the approval on screen after `extra` bytes were written at its moment. */
export interface ApprovalReading {
  /** The driver's modal (null: the variant no longer shows a modal). */
  modal: ReturnType<FsmDriver['getCurrentView']> extends infer V ? (V extends { modal: infer M } ? M : null) : null;
  subject: ModalSubject | null;
  /** The terminal's rows, top to bottom (index = the row a cursor move addresses, 0-based). */
  lines: string[];
  decide(policy: ApprovalPolicy): PolicyDecision;
}

/** Replays the screen, writes `extra` (if any) right after its moment, and reads it as the daemon does. */
export function readApproval(screen: ApprovalScreen, extra = ''): ApprovalReading {
  const t = screen.atMs / 1000;
  const events = extra === '' ? screen.cast.events : [...screen.cast.events, { t: t + 0.001, type: 'o' as const, data: extra }];
  const { driver } = replaySession({ cast: { header: screen.cast.header, events }, spec: screen.spec, untilMs: screen.atMs + 400 });
  try {
    const view = driver.getCurrentView();
    const modal = view?.modal ?? null;
    const subject = readModalSubject(driver);
    // viewportLines() leaves out blank rows at the top; a cursor move counts them.
    const lines = [...Array<string>(driver.screen.leadingBlankRows()).fill(''), ...driver.screen.viewportLines()];
    const approval = { kind: modal?.kind ?? null, startupGate: false, title: modal?.title ?? null, body: lines.join('\n'), buttons: modal?.buttons ?? [], subject };
    return { modal, subject, lines, decide: (policy) => decideApproval(policy, approval) };
  } finally {
    driver.shutdown();
  }
}

/** Where a text stands on screen: its row and its column (text index) on that row. */
export interface ScreenSpot {
  row: number;
  col: number;
}

/** The last row holding `text`, and where on it (so the subject's own row, not an echo in the history above). */
export function findOnScreen(lines: string[], text: string): ScreenSpot | null {
  for (let row = lines.length - 1; row >= 0; row -= 1) {
    const col = lines[row]!.indexOf(text);
    if (col >= 0) return { row, col };
  }
  return null;
}

/** Bytes that move to `spot` (0-based) and write `text` there; nothing else of the row changes. */
export function paintAt(spot: ScreenSpot, text: string): string {
  return `\u001b[${spot.row + 1};${spot.col + 1}H${text}`;
}

/**
 * Bytes that replace `old` at `spot` by `text`, blanking what is left of `old` (the row's edges
 * stay where they were); escape sequences in `text` take no room.
 */
export function replaceAt(spot: ScreenSpot, old: string, text: string): string {
  const shown = text.replace(/\u001b\[[0-9;]*[A-Za-z]|\p{Cf}/gu, '').length;
  return paintAt(spot, text + ' '.repeat(Math.max(old.length - shown, 0)));
}

/**
 * Bytes that make room for one more row right under `spot.row` and write `text` there at
 * `spot.col`: the rows above move up by one (the top row scrolls away), as when a CLI draws a
 * taller region; the new row keeps the subject row's box edges (a marker such as `$ ` before the
 * column becomes blank, as on a continuation row).
 */
export function insertRowUnder(lines: string[], spot: ScreenSpot, text: string): string {
  const row = lines[spot.row]!;
  const edge = /[ \t]?[│┃║](?:[ \t]?[│┃║])*[ \t]*$/.exec(row.slice(spot.col))?.[0] ?? '';
  const width = row.length - spot.col - edge.length;
  const inserted = row.slice(0, spot.col).replace(/[^│┃║]/g, ' ') + text.padEnd(width) + edge;
  let bytes = '';
  for (let r = 0; r < spot.row; r += 1) bytes += `\u001b[${r + 1};1H\u001b[2K${lines[r + 1]!}`;
  return `${bytes}\u001b[${spot.row + 1};1H\u001b[2K${inserted}`;
}
