/**
 * A tiny semver range check for `cli_version_range` (informational in the format, shown by
 * `specterm list`). Supports comparators `>=x.y.z`, `>x`, `<=x`, `<x`, `=x`, bare `x.y.z`,
 * `^x.y`, `~x.y`, `*`/`x`, space-separated AND and `||`. Partial versions fill with zeros
 * (`<2` = `<2.0.0`). Pre-release and build tags are ignored: enough for "does this spec claim
 * the installed CLI", not a full semver implementation.
 *
 * @module
 */

type Version = [number, number, number];
type Comparator = { op: '>=' | '>' | '<=' | '<' | '='; v: Version };

/** Parses the first `x.y.z` (or `x.y`, `x`) in `text`, e.g. from `claude --version` output. */
export function extractVersion(text: string): string | null {
  const m = /(?<![\d.])(\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  return m ? `${m[1]}.${m[2]}.${m[3] ?? '0'}` : null;
}

function parseVersion(text: string): { v: Version; parts: number } | null {
  const m = /^v?(\d+)(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:[-+][0-9A-Za-z.+-]*)?$/.exec(text.trim());
  if (!m) return null;
  const nums = [m[1], m[2], m[3]].filter((p) => p !== undefined && /^\d+$/.test(p)).map(Number);
  return { v: [nums[0] ?? 0, nums[1] ?? 0, nums[2] ?? 0], parts: nums.length };
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

function expandToken(token: string): Comparator[] | null {
  if (token === '*' || token === 'x' || token === 'X') return [];
  const caret = /^\^(.+)$/.exec(token);
  const tilde = /^~(.+)$/.exec(token);
  if (caret || tilde) {
    const p = parseVersion((caret ?? tilde)![1]!);
    if (!p) return null;
    const [maj, min, pat] = p.v;
    let upper: Version;
    if (tilde) upper = p.parts >= 2 ? [maj, min + 1, 0] : [maj + 1, 0, 0];
    else if (maj > 0 || p.parts === 1) upper = [maj + 1, 0, 0];
    else if (min > 0 || p.parts === 2) upper = [0, min + 1, 0];
    else upper = [0, 0, pat + 1];
    return [{ op: '>=', v: p.v }, { op: '<', v: upper }];
  }
  const m = /^(>=|<=|>|<|=)?(.+)$/.exec(token)!;
  const p = parseVersion(m[2]!);
  if (!p) return null;
  const op = (m[1] ?? '=') as Comparator['op'];
  // A partial bare version is a range: `1.2` = >=1.2.0 <1.3.0.
  if (op === '=' && p.parts < 3) {
    const [maj, min] = p.v;
    if (p.parts === 0) return [];
    return [{ op: '>=', v: p.v }, { op: '<', v: p.parts === 1 ? [maj + 1, 0, 0] : [maj, min + 1, 0] }];
  }
  return [{ op, v: p.v }];
}

function test(c: Comparator, v: Version): boolean {
  const d = compare(v, c.v);
  switch (c.op) {
    case '>=': return d >= 0;
    case '>': return d > 0;
    case '<=': return d <= 0;
    case '<': return d < 0;
    case '=': return d === 0;
  }
}

/**
 * Whether `version` satisfies `range`.
 *
 * @returns true/false, or null when the range or the version cannot be parsed.
 * @example satisfiesRange('2.1.3', '>=2.1.0 <3') // true
 */
export function satisfiesRange(version: string, range: string): boolean | null {
  const v = parseVersion(version);
  if (!v || v.parts < 1) return null;
  const alternatives = range.split('||').map((a) => a.trim());
  let any = false;
  for (const alt of alternatives) {
    // `>= 1.2` is written with a space by some authors: glue an operator to its version.
    const tokens = alt.replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1').split(/\s+/).filter(Boolean);
    const comparators: Comparator[] = [];
    for (const t of tokens) {
      const c = expandToken(t);
      if (!c) return null;
      comparators.push(...c);
    }
    if (comparators.every((c) => test(c, v.v))) any = true;
  }
  return any;
}
