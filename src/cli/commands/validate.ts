/**
 * `specterm validate <spec…>`: errors and warnings per file; exit 1 on any error.
 * `--strict` also refuses what only the reference tolerates; `--json` prints the issues.
 *
 * @module
 */
import * as path from 'node:path';
import { resolveSpecRef } from '../../catalog/builtin.js';
import { loadSpec, type LoadResult } from '../../catalog/index.js';
import { userVerdictCacheFile } from '../../catalog/verdict-store.js';
import { defineCommand } from '../command.js';
import { describeCommand } from '../command-table.js';
import { CliUsageError } from '../errors.js';
import type { CliIo } from '../io.js';

export const validateCommand = defineCommand(
  {
    ...describeCommand('validate'),
    positionals: [{ name: '<spec>', required: true, variadic: true, help: 'built-in spec id or path to a spec.json' }],
    flags: {
      strict: {
        type: 'boolean',
        flag: 'strict',
        help: 'also refuse what the reference engine tolerates (bad section definitions, unknown when_state, …), which a run only warns about',
      },
      json: { type: 'boolean', flag: 'json', help: 'print {"specs": [{ref, path, ok, issues: [{path, code, message, severity}]}]} instead of text' },
    },
    notes: [
      'Exit codes: 0 every spec is valid (warnings allowed), 1 some spec has errors, 2 a reference cannot be resolved.',
      'Issue codes (SPEC_BAD_REGEX, SPEC_UNKNOWN_STATE, …) are listed in docs/validation.md.',
    ],
  },
  async ({ flags, positionals }, io) => {
    // Resolve every reference first: a typo in one argument is a usage error, not a verdict.
    const refs = positionals.map((ref) => {
      const looksLikePath = ref.includes('/') || ref.includes(path.sep) || ref.endsWith('.json');
      const r = resolveSpecRef(looksLikePath ? path.resolve(io.cwd, ref) : ref);
      if (!r.ok) throw new CliUsageError('validate', r.message);
      return { ref, path: r.path };
    });
    // Screening a pattern for the first time can take seconds: say so once, on stderr.
    let told = false;
    const onAnalyse = (): void => {
      if (told) return;
      told = true;
      io.stderr.write(`specterm validate: screening new regexes for ReDoS (once: verdicts are kept in ${userVerdictCacheFile(io.env)})…\n`);
    };
    const results = refs.map(({ ref, path: file }) => ({ ref, file, result: loadSpec(file, { strict: flags.strict, onAnalyse }) }));
    if (flags.json) {
      const specs = results.map(({ ref, file, result }) => ({ ref, path: file, ok: result.ok, issues: result.issues }));
      io.stdout.write(`${JSON.stringify({ specs }, null, 2)}\n`);
    } else {
      for (const { ref, file, result } of results) printText(io, ref === file ? file : `${ref} (${file})`, result);
    }
    return results.some(({ result }) => !result.ok) ? 1 : 0;
  },
);

function printText(io: CliIo, label: string, r: LoadResult): void {
  const warned = r.warnings.length ? `, ${r.warnings.length} warning(s)` : '';
  if (r.ok) io.stdout.write(`${label}: ok${warned}\n`);
  else {
    io.stdout.write(`${label}: ${r.errors.length} error(s)${warned}\n`);
    for (const e of r.errors) io.stdout.write(`  error: ${e}\n`);
  }
  for (const w of r.warnings) io.stdout.write(`  warning: ${w}\n`);
}
