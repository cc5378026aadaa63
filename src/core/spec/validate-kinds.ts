/**
 * The kinds rule (docs/writing-specs.md, "Modal kinds"): consent to run or edit something is
 * `approval`; questions and menus are `picker`; folder trust, bypass-permission warnings and other
 * startup gates are `confirm`. Trust lets a folder's configuration execute code, so a trust gate
 * declared `approval` would be answerable by an auto-approve policy: the validator warns on the
 * obvious case — a modal state of kind `approval` (declared or by default) whose id, label or
 * entering guards speak of trust or bypassed permissions.
 */
import { classifyCondition } from './condition-kind.js';
import { MAX_CONDITION_DEPTH } from './validate-condition.js';
import { isRecord, showValue, type ValidationContext } from './validate-context.js';

/** Wording of startup gates (folder trust, bypass-permission / dangerous-mode warnings). */
const GATE_WORDING = /\btrust(?:ed|ing)?\b|\bbypass(?:ing)?[\s\\-]*(?:all\s*)?permissions?\b|\bdangerously\b|\byolo\b/i;

/** Regex sources of the `matches` leaves of a guard (absence checks included: they still name the screen). */
function guardPatterns(cond: unknown, depth: number, out: string[]): void {
  if (depth > MAX_CONDITION_DEPTH || !isRecord(cond)) return;
  const kind = classifyCondition(cond);
  if (kind === 'all' || kind === 'any') {
    const list = cond[kind];
    if (Array.isArray(list)) for (const child of list as unknown[]) guardPatterns(child, depth + 1, out);
  } else if (kind === 'not') {
    guardPatterns(cond.not, depth + 1, out);
  } else if (kind === 'regex' && typeof cond.matches === 'string') {
    out.push(cond.matches);
  }
}

function enters(transition: Record<string, unknown>, stateId: string): boolean {
  return transition.to === stateId;
}

/** Warns (`SPEC_KIND_MISMATCH`) on an `approval` modal that reads as a trust or bypass gate. */
export function lintModalKinds(ctx: ValidationContext, states: unknown[], transitions: unknown[]): void {
  states.forEach((state, i) => {
    if (!isRecord(state) || state.modal !== true || typeof state.id !== 'string') return;
    const kind = state.modal_kind ?? 'approval';
    if (kind !== 'approval') return;
    const texts = [state.id, typeof state.label === 'string' ? state.label : ''];
    for (const t of transitions) {
      if (!isRecord(t) || !enters(t, state.id)) continue;
      guardPatterns(t.when, 1, texts);
    }
    const hit = texts.find((text) => GATE_WORDING.test(text));
    if (hit === undefined) return;
    ctx.warn(
      'SPEC_KIND_MISMATCH',
      `states[${i}].modal_kind`,
      `is "approval" (declared or by default) on a modal that reads as a startup gate (trust / bypass permissions: ${showValue(hit)}); an auto-approve policy would answer it`,
      undefined,
      'declare "modal_kind": "confirm" for folder trust, bypass-permission warnings and other startup gates (docs/writing-specs.md, "Modal kinds")',
    );
  });
}
