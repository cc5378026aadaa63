/**
 * `specterm list`: the built-in specs, whether their program is installed, its version and
 * whether the spec's `cli_version_range` claims it.
 *
 * @module
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { listBuiltinSpecs, loadSpecRef } from '../../catalog/builtin.js';
import { findBinary, isBinaryNotFound } from '../../driver/find-binary.js';
import { defineCommand } from '../command.js';
import { describeCommand } from '../command-table.js';
import { extractVersion, satisfiesRange } from '../semver-range.js';

/** `<binary> --version` gets this long; a CLI that waits for a login must not hang `list`. */
const VERSION_TIMEOUT_MS = 5000;

/** One row of `specterm list`. */
export interface SpecListing {
  id: string;
  name: string;
  binary: string;
  /** Absolute path when found, else null. */
  found: string | null;
  version: string | null;
  range: string | null;
  /** yes / no / `-` (no range or no version) / `?` (unparsable range). */
  claimed: 'yes' | 'no' | '-' | '?';
  error?: string;
}

/**
 * The program whose version we ask: the binary, plus leading spawn args that are files — so a
 * spec that runs `node <script>` reports the script's version, not Node's — then `--version`.
 */
function versionArgv(binaryPath: string, spawnArgs: readonly string[]): string[] {
  const lead: string[] = [];
  for (const a of spawnArgs) {
    if (a.startsWith('-') || !fs.existsSync(a)) break;
    lead.push(a);
  }
  return [binaryPath, ...lead, '--version'];
}

/** Probes every built-in spec. */
export function listSpecs(): SpecListing[] {
  return listBuiltinSpecs().map((entry) => {
    const loaded = loadSpecRef(entry.id);
    if (!loaded.ok) {
      return { id: entry.id, name: '-', binary: '-', found: null, version: null, range: null, claimed: '-', error: loaded.errors[0] } satisfies SpecListing;
    }
    const spec = loaded.spec;
    const hit = findBinary(spec.binary);
    const found = isBinaryNotFound(hit) ? null : hit.path;
    let version: string | null = null;
    if (found) {
      const [file, ...args] = versionArgv(found, spec.spawn_args ?? []);
      // No shell: arguments are passed as an array and never interpreted.
      const r = spawnSync(file!, args, { encoding: 'utf8', timeout: VERSION_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'], shell: false });
      if (!r.error) version = extractVersion(`${r.stdout ?? ''}\n${r.stderr ?? ''}`);
    }
    const range = spec.cli_version_range ?? null;
    let claimed: SpecListing['claimed'] = '-';
    if (range && version) {
      const s = satisfiesRange(version, range);
      claimed = s === null ? '?' : s ? 'yes' : 'no';
    }
    return { id: entry.id, name: spec.name ?? '-', binary: spec.binary, found, version, range, claimed };
  });
}

export const listCommand = defineCommand(
  {
    ...describeCommand('list'),
    positionals: [],
    flags: {
      json: { type: 'boolean', flag: 'json', help: 'print a JSON array instead of a table' },
    },
  },
  async ({ flags }, io) => {
    const rows = listSpecs();
    if (flags.json) {
      io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      return 0;
    }
    const table = [
      ['id', 'name', 'binary', 'on PATH', 'version', 'range', 'claimed'],
      ...rows.map((r) => [r.id, r.name, r.binary, r.found ? 'yes' : 'no', r.version ?? '-', r.range ?? '-', r.claimed]),
    ];
    const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
    for (const row of table) io.stdout.write(`${row.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()}\n`);
    for (const r of rows) if (r.error) io.stderr.write(`${r.id}: ${r.error}\n`);
    if (rows.length === 0) io.stdout.write('(no built-in specs found)\n');
    return 0;
  },
);
