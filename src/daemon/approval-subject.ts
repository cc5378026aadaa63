/**
 * Whether an approval's subject (the consented command, path, URL or tool, read by the spec's
 * `extract.subject`) may be judged by a policy at all. A person decides, whatever the rules, when:
 * - no subject was isolated (the spec names none for the state, no rule matched, the region was
 *   ambiguous or empty): there is nothing but agent-written text to judge;
 * - part of it is drawn so a person cannot see it (concealed, in its background colour), or it
 *   holds control, zero-width, bidi or other format characters: what a person reads is then not
 *   what runs, and a rule written for the visible text would be judging something else;
 * - a command holds shell control or substitution syntax (a second line, `;`, `&`, `|`, a
 *   backtick, `$(`, `<`, `>`): a rule for `npm test` cannot vouch for what follows it, and regexes
 *   over shell are easy to get wrong, so chaining is always a person's call;
 * - a path has a `..` segment: it may climb out of where the rule meant to allow.
 *
 * @module
 */
import { extractSubject, type ModalSubject } from '../core/eval/extract-subject.js';
import { resolveSections } from '../core/eval/sections.js';
import { stateById } from '../core/spec/model.js';
import type { SubjectKind } from '../core/spec/types.js';
import type { FsmDriver } from '../driver/fsm-driver.js';

/** C0 and C1 controls but none of tab and newline (a region's lines are joined with `\n`). */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u;
/**
 * Zero-width, bidi, invisible operators and other format characters (Unicode Cf), the line and
 * paragraph separators, and blank-looking letters Cf leaves out (Hangul fillers, braille blank).
 */
const INVISIBLE = /[\p{Cf}\u2028\u2029\u115f\u1160\u3164\uffa0\u2800]/u;
/** Shell control and substitution: a second command (newline, `;`, `&`, `|`), substitution (backtick, `$(`), redirection. */
const SHELL_SYNTAX = /[\n\r;&|`<>]|\$\(/;
/** A `..` path segment, with either separator. */
const PARENT_SEGMENT = /(?:^|[\\/])\.\.(?:[\\/]|$)/;

/** A subject a policy may judge: its kind and whole text. */
export interface JudgeableSubject {
  kind: SubjectKind;
  text: string;
}

/** The subject to judge, or why a person must decide instead. */
export function judgeSubject(subject: ModalSubject | null | undefined): JudgeableSubject | { reason: string } {
  if (!subject || subject.kind === null || subject.text === null) {
    return { reason: `no subject isolated (${subject?.problem ?? 'the approval carries none'}); a policy judges only the command, path, URL or tool the CLI shows, so a person decides` };
  }
  const { kind, text } = subject;
  if (subject.problem !== null) return { reason: `the ${kind} cannot be judged as shown: ${subject.problem}; a person decides` };
  if (CONTROL.test(text)) return { reason: `the ${kind} holds a control character; a person decides` };
  if (INVISIBLE.test(text)) return { reason: `the ${kind} holds an invisible (zero-width, bidi or format) character; a person decides` };
  if (kind === 'command' && SHELL_SYNTAX.test(text)) {
    return { reason: `the command has shell control or substitution syntax (a second line, ; & | \` $( < >); a person decides` };
  }
  if (kind === 'path' && PARENT_SEGMENT.test(text)) return { reason: 'the path has a ".." segment; a person decides' };
  return { kind, text };
}

/**
 * The subject of the modal a driver shows now, read by its current state's `extract.subject`
 * from the screen as it stands and its cells (so text drawn invisibly is flagged); null when
 * the driver reports no state yet.
 */
export function readModalSubject(driver: FsmDriver): ModalSubject | null {
  const stateId = driver.getCurrentView()?.state.id;
  if (stateId === undefined) return null;
  const spec = driver.getSpec();
  const lines = driver.screen.viewportLines() as string[];
  return extractSubject(stateById(spec, stateId), resolveSections(spec.sections, lines), () => lines.join('\n'), driver.screen.frameCells('viewport'));
}
