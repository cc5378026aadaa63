/**
 * Validation of `extract.subject` (specterm extension): where an approval state shows the thing
 * consented to. One rule or a non-empty list of alternatives; each names its `kind`.
 */
import { hasKey, isRecord, showGot, showValue, type ValidationContext } from './validate-context.js';

/** Allowed subject kinds. */
export const SUBJECT_KINDS = ['command', 'path', 'url', 'tool'] as const;
const SUBJECT_FIELDS = ['section', 'regex', 'flags', 'kind'];

/** Checks `extract.subject` of a state whose modal kind is `modalKind` (null: not modal). */
export function validateSubject(ctx: ValidationContext, subject: unknown, path: string, modalKind: unknown): void {
  if (modalKind !== 'approval') {
    ctx.warn('SPEC_IGNORED_FIELD', path, 'is only read on an approval (a modal state with modal_kind "approval" or none)', showValue(subject), 'remove it, or make the state an approval');
  }
  if (Array.isArray(subject)) {
    if (subject.length === 0) ctx.error('SPEC_TYPE', path, 'must name at least one rule', showGot(subject), 'give {kind, section?, regex?} or remove subject');
    subject.forEach((rule, i) => validateSubjectRule(ctx, rule, `${path}[${i}]`));
  } else validateSubjectRule(ctx, subject, path);
}

function validateSubjectRule(ctx: ValidationContext, rule: unknown, path: string): void {
  if (!isRecord(rule)) {
    ctx.error('SPEC_TYPE', path, 'must be an object {kind, section?, regex?, flags?} or a list of them', showGot(rule));
    return;
  }
  ctx.unknownKeys(rule, path, SUBJECT_FIELDS, 'a subject rule');
  if (!hasKey(rule, 'kind')) ctx.error('SPEC_REQUIRED', `${path}.kind`, 'is required', 'missing', `say what is consented to: ${SUBJECT_KINDS.join(', ')}`);
  else if (!(SUBJECT_KINDS as readonly unknown[]).includes(rule.kind)) ctx.error('SPEC_ENUM', `${path}.kind`, `must be ${SUBJECT_KINDS.join('|')}`, showGot(rule.kind));
  if (hasKey(rule, 'section')) ctx.sectionRef(rule, 'section', path);
  const flags = ctx.flags(rule, 'flags', path);
  const regex = ctx.string(rule, 'regex', path, { nonEmpty: true });
  if (regex !== undefined && flags !== false) {
    let effective = flags ?? '';
    for (const f of 'gd') if (!effective.includes(f)) effective += f;
    ctx.regex(`${path}.regex`, regex, effective);
  }
}
