/**
 * `cli_version` (specterm extension): how a session reads the installed CLI's version, to check
 * it against `cli_version_range` (docs/writing-specs.md, "A new CLI version").
 */
import { hasKey, isRecord, showGot, type ValidationContext } from './validate-context.js';

export function validateCliVersion(ctx: ValidationContext, value: unknown): void {
  if (value === undefined) return;
  if (!isRecord(value)) {
    ctx.error('SPEC_TYPE', 'cli_version', 'must be an object {args, regex?}', showGot(value), 'use e.g. {"args": ["--version"]}');
    return;
  }
  const args = ctx.stringArray(value, 'args', 'cli_version');
  if (!hasKey(value, 'args')) ctx.error('SPEC_REQUIRED', 'cli_version.args', 'is required', 'missing', 'give the arguments that print the version, e.g. ["--version"]');
  else if (args && args.length === 0) ctx.warn('SPEC_NO_EFFECT', 'cli_version.args', 'is empty: the CLI would be started as for a session', undefined, 'give e.g. ["--version"]');
  const regex = ctx.string(value, 'regex', 'cli_version');
  if (regex !== undefined) ctx.regex('cli_version.regex', regex, '');
  ctx.unknownKeys(value, 'cli_version', ['args', 'regex'], 'cli_version');
}
