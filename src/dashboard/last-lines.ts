/**
 * The last line each session's agent said, for the overview's rows. Kept cheap: a session's line
 * is read once (`getTranscript?last=1`) when its row is first shown; after that a
 * `transcript.turn` event on the `sessions` topic carries the turn itself, and a `turn.finished`
 * reads the last turn again (the CLI may write the turn's end just after the screen went idle).
 * Never one read per event, and at most one read in flight per session.
 * @module
 */
import { signal } from '@preact/signals';
import type { DaemonEvent } from '../protocol/events.js';
import { call } from './api-client.js';
import { lastLineOf } from './transcript-model.js';

export const lastLines = signal<ReadonlyMap<string, string>>(new Map());

/** Sessions whose line was read once (their rows were shown). */
const shown = new Set<string>();
const reading = new Set<string>();
/** Sessions asked for again while a read was in flight: read once more after it. */
const again = new Set<string>();

/** The turn each session's line was taken from. */
const lineTurn = new Map<string, number>();

/**
 * The line of turn `turn` — unless a later turn's line is shown already: the `sessions` topic
 * replays its history when the page subscribes, and an old turn's event can arrive after the
 * first read brought the newest.
 */
function setLine(id: string, line: string | null, turn: number): void {
  if (line === null || turn < (lineTurn.get(id) ?? -1)) return;
  lineTurn.set(id, turn);
  if (lastLines.value.get(id) === line) return;
  const next = new Map(lastLines.value);
  next.set(id, line);
  lastLines.value = next;
}

function readLastLine(id: string): void {
  if (reading.has(id)) { again.add(id); return; }
  reading.add(id);
  call('getTranscript', { params: { id }, query: { last: 1 } })
    .then((answer) => {
      const turns = answer.transcript?.turns ?? [];
      if (turns.length) setLine(id, lastLineOf(turns), turns.at(-1)!.index);
    })
    // A session removed meanwhile, or one whose spec keeps no history: its row shows no line.
    .catch(() => undefined)
    .finally(() => {
      reading.delete(id);
      if (again.delete(id)) readLastLine(id);
    });
}

/** The rows on screen: each session's line is read the first time its row shows. */
export function readLastLines(ids: readonly string[]): void {
  for (const id of ids) {
    if (shown.has(id)) continue;
    shown.add(id);
    readLastLine(id);
  }
}

/** An event of the `sessions` topic: keeps the shown sessions' lines current. */
export function noteTranscriptEvent(event: DaemonEvent): void {
  if (event.type === 'transcript.turn') setLine(event.session_id, lastLineOf([event.turn]), event.turn.index);
  else if (event.type === 'turn.finished' && shown.has(event.session_id)) readLastLine(event.session_id);
}
