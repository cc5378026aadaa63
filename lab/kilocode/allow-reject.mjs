/**
 * The sessions of a Kilo permission drawn with two options, `Allow` / `Reject` (no Allow always:
 * the skill shell, the sandbox escalation): Allow at 80×24 and 60×20, where what the permission
 * guards happens and the turn ends; Reject at 80×24, where Kilo's feedback block opens, Enter (no
 * text) ends the turn and nothing happened.
 */
import { confirmFeedback, FEEDBACK_STEP } from '../opencode/prompt-sessions.mjs';

const starting = [{ state: 'starting' }, { state: 'idle' }];

/**
 * @param {object} o
 * @param {string} o.name - session name prefix: `<name>-yes`, `<name>-no`, `<name>-yes-60x20`
 * @param {{ title: string, buttons: string[], state?: string, kind?: string }} o.modal - the permission's title and buttons,
 *   and the spec state and kind it reads as (default `approval`, `approval`)
 * @param {string} o.kind - the lab's approval kind (KILOCODE.approvals key)
 * @param {string} o.prompt - what the person types (the scripted server answers it with the tool call)
 * @param {(c: object) => boolean} o.happened - whether what the permission guards took place
 * @param {{ yes: string, no: string }} o.checks - the check texts: it happened after Allow, it did not after Reject
 * @param {{ yes: string, no: string }} o.descriptions - the sessions' descriptions
 * @param {object} [o.fields] - what every session adds (setup, setupHome, config, permission)
 */
export function allowRejectSessions({ name, modal, kind, prompt, happened, checks, descriptions, fields = {} }) {
  const asked = { state: modal.state ?? 'approval', status: 'approval', modal: { title: modal.title, kind: modal.kind ?? 'approval', buttons: modal.buttons } };
  const allowed = {
    ...fields, name: `${name}-yes`, cols: 80, rows: 24, description: descriptions.yes,
    run: async (c) => {
      await c.prompt(prompt);
      await c.approval(1, kind);
      await c.turnEnd();
      c.check(checks.yes, happened(c));
    },
    expect: { sequence: [...starting, { state: 'busy' }, asked, { state: 'busy', modal: null }, { state: 'idle' }], final: { state: 'idle' } },
  };
  const rejected = {
    ...fields, name: `${name}-no`, cols: 80, rows: 24, description: descriptions.no,
    run: async (c) => {
      await c.prompt(prompt);
      await c.approval(2, kind);
      await confirmFeedback(c);
      await c.deniedEnd();
      c.check(checks.no, !happened(c));
    },
    expect: { sequence: [...starting, { state: 'busy' }, asked, FEEDBACK_STEP, { state: 'idle', modal: null }], final: { state: 'idle' } },
  };
  // The same Allow in a 60×20 terminal: the title and the `$` row narrower, the hints under the options.
  const allowedNarrow = { ...allowed, name: `${name}-yes-60x20`, cols: 60, rows: 20, description: `${allowed.description} (a 60×20 terminal)` };
  return [allowed, rejected, allowedNarrow];
}

/** The lab's check of such a permission's modal: this title and exactly these buttons. */
export const exactModal = ({ title, buttons, state }) => ({ title, state, buttonsOk: (labels) => JSON.stringify(labels) === JSON.stringify(buttons) });
