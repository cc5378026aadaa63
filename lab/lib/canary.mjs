/**
 * The canary's verdict table: per scenario, the verdict on the proven (pinned) CLI version and on
 * the newest one from the registry, and which changed. Pure; `lab/run.mjs --latest` feeds it
 * the verdicts the labs report through `recordVerdict` (lab/lib/install-cli.mjs).
 */

/**
 * @typedef {{ scenario: string, verdict: 'pass' | 'fail' }} Verdict
 * @typedef {{ scenario: string, proven: string, latest: string, changed: boolean }} VerdictRow
 */

/**
 * Joins two runs' verdicts by scenario (a scenario run only once is `–` on the other side, and
 * counts as changed). A scenario reported twice in one run keeps its worst verdict.
 * @param {Verdict[]} proven
 * @param {Verdict[]} latest
 * @returns {VerdictRow[]} sorted by scenario name
 */
export function diffVerdicts(proven, latest) {
  const fold = (list) => {
    const m = new Map();
    for (const { scenario, verdict } of list) m.set(scenario, m.get(scenario) === 'fail' ? 'fail' : verdict);
    return m;
  };
  const a = fold(proven);
  const b = fold(latest);
  const names = [...new Set([...a.keys(), ...b.keys()])].sort();
  return names.map((scenario) => {
    const p = a.get(scenario) ?? '–';
    const l = b.get(scenario) ?? '–';
    return { scenario, proven: p, latest: l, changed: p !== l };
  });
}

/**
 * The table the canary prints (Markdown, so it can go into an issue as it is).
 * @param {VerdictRow[]} rows
 * @param {{ cli: string, proven: string, latest: string }} versions
 */
export function formatVerdictTable(rows, versions) {
  const changed = rows.filter((r) => r.changed);
  const lines = [
    `canary ${versions.cli}: proven ${versions.proven} → latest ${versions.latest}: ${changed.length ? `${changed.length} verdict(s) changed` : 'no verdict changed'}`,
    '',
    `| scenario | proven ${versions.proven} | latest ${versions.latest} | changed |`,
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.scenario} | ${r.proven} | ${r.latest} | ${r.changed ? '**yes**' : ''} |`),
  ];
  return `${lines.join('\n')}\n`;
}
