/**
 * The specs the create form offers: the ones this browser started sessions with lately (kept
 * in localStorage), the ones running sessions use, then every built-in spec (`GET /specs`).
 * A spec is still typed freely (a path to a .json file works too); this is the list under it.
 * @module
 */

const RECENT_KEY = 'specterm.recent-specs';
/** Enough to cover the few specs one person switches between. */
const RECENT_MAX = 5;

/** A spec reference that names a file (the catalog's rule: a slash or a .json ending), not a built-in id. */
export function isSpecPath(ref: string): boolean {
  return ref.includes('/') || ref.endsWith('.json');
}

export function readRecentSpecs(): string[] {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]');
    return Array.isArray(list) ? list.filter((s): s is string => typeof s === 'string').slice(0, RECENT_MAX) : [];
  } catch {
    return []; // storage off or a foreign value: no recent specs
  }
}

export function rememberSpec(ref: string): void {
  try {
    localStorage.setItem(RECENT_KEY, JSON.stringify([ref, ...readRecentSpecs().filter((s) => s !== ref)].slice(0, RECENT_MAX)));
  } catch {
    // storage off (private mode): the list just stays short
  }
}

/** Recent first, then those in use, then the built-ins; each once. */
export function listSpecChoices(recent: readonly string[], inUse: readonly string[], builtin: readonly string[]): { id: string; note: string }[] {
  const seen = new Set<string>();
  const out: { id: string; note: string }[] = [];
  const add = (ids: readonly string[], note: string) => {
    for (const id of ids) if (!seen.has(id)) { seen.add(id); out.push({ id, note }); }
  };
  add(recent, 'recent');
  add(inUse, 'in use');
  add(builtin, 'built-in');
  return out;
}

/** Why `ref` cannot start a session, in words, or null; `builtin` null while the list is unknown. */
export function checkSpecRef(ref: string, builtin: readonly string[] | null): string | null {
  if (ref === '') return 'Spec: pick one from the list, or give the path of a spec .json file.';
  if (isSpecPath(ref) || builtin === null || builtin.includes(ref)) return null;
  return `Spec: "${ref}" is not a built-in spec; pick one from the list (${builtin.join(', ')}) or give the path of a spec .json file.`;
}
