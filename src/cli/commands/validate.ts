/**
 * `specterm validate <spec…>`: errors and warnings per file; exit 1 on any error.
 *
 * @module
 */
import * as path from 'node:path';
import { resolveSpecRef } from '../../catalog/builtin.js';
import { loadSpec } from '../../catalog/index.js';
import { defineCommand } from '../command.js';
import { CliUsageError } from '../errors.js';

export const validateCommand = defineCommand(
  {
    name: 'validate',
    summary: 'Check spec files (or built-in ids) against the adhdev:cli/spec@4 format: every error and warning, per file.',
    positionals: [{ name: '<spec>', required: true, variadic: true, help: 'built-in spec id or path to a spec.json' }],
    flags: {},
    notes: ['Exit codes: 0 every spec is valid (warnings allowed), 1 some spec has errors, 2 a reference cannot be resolved.'],
  },
  async ({ positionals }, io) => {
    // Resolve every reference first: a typo in one argument is a usage error, not a verdict.
    const refs = positionals.map((ref) => {
      const looksLikePath = ref.includes('/') || ref.includes(path.sep) || ref.endsWith('.json');
      const r = resolveSpecRef(looksLikePath ? path.resolve(io.cwd, ref) : ref);
      if (!r.ok) throw new CliUsageError('validate', r.message);
      return { ref, path: r.path };
    });
    let failed = 0;
    for (const { ref, path: file } of refs) {
      const r = loadSpec(file);
      const label = ref === file ? file : `${ref} (${file})`;
      if (r.ok) {
        io.stdout.write(`${label}: ok${r.warnings.length ? `, ${r.warnings.length} warning(s)` : ''}\n`);
      } else {
        failed += 1;
        io.stdout.write(`${label}: ${r.errors.length} error(s)${r.warnings.length ? `, ${r.warnings.length} warning(s)` : ''}\n`);
        for (const e of r.errors) io.stdout.write(`  error: ${e}\n`);
      }
      for (const w of r.warnings) io.stdout.write(`  warning: ${w}\n`);
    }
    return failed > 0 ? 1 : 0;
  },
);
