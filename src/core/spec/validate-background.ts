/**
 * `background_work` (specterm extension, ./background-work.ts): each rule's id, pattern, flags,
 * section, count group and noun. Every message names the field, the value and the fix.
 */
import { countCaptureGroups } from './regex-lint.js';
import { forEachEntry, SIGNAL_ID_RE, trackUniqueId } from './validate-extras.js';
import { hasKey, showValue, type ValidationContext } from './validate-context.js';

const FIELDS = ['id', 'pattern', 'flags', 'section', 'count_group', 'noun'];

/** Checks the `background_work` list of a spec. */
export function validateBackgroundWork(ctx: ValidationContext, value: unknown): void {
  const seen = new Map<string, string>();
  forEachEntry(ctx, value, 'background_work', 'background work rules', (r, path) => {
    ctx.unknownKeys(r, path, FIELDS, 'a background work rule');
    const id = ctx.string(r, 'id', path, { required: true, fix: 'name the kind of work, e.g. "shell" or "agent"' });
    if (id !== undefined && !SIGNAL_ID_RE.test(id)) {
      ctx.error('SPEC_BAD_ID', `${path}.id`, 'must be a short snake_case name', showValue(id), 'use lower-case letters, digits and "_", e.g. "shell"');
    }
    trackUniqueId(ctx, seen, id, path);
    if (hasKey(r, 'section')) ctx.sectionRef(r, 'section', path);
    ctx.string(r, 'noun', path, { nonEmpty: true, fix: 'say what one item is called, e.g. "background shell", or remove noun' });
    let flags = ctx.flags(r, 'flags', path);
    if (typeof flags === 'string' && /[gy]/.test(flags)) {
      ctx.error('SPEC_BAD_FLAGS', `${path}.flags`, 'may not contain "g" or "y" (each row is tested on its own)', showValue(flags), 'remove them; "i" and "u" are fine');
      flags = false;
    }
    const countGroup = ctx.number(r, 'count_group', path, { integer: true, min: 1, fix: 'the number of the capture group that holds the count, e.g. 1' });
    const pattern = ctx.string(r, 'pattern', path, { required: true, nonEmpty: true, fix: 'a regex for the row that shows the work, e.g. "(\\\\d+) shells? still running"' });
    if (pattern === undefined || flags === false || !ctx.regex(`${path}.pattern`, pattern, flags ?? '')) return;
    const groups = countCaptureGroups(pattern, flags ?? '');
    if (countGroup !== undefined && countGroup > groups) {
      ctx.error('SPEC_CAPTURE_GROUPS', `${path}.count_group`, `names capture group ${countGroup} but the pattern has ${groups}`, showValue(countGroup), 'add the group that holds the number, or fix count_group');
    }
  });
}
