/**
 * The version check of a session: read the CLI's version the way its spec says (`cli_version`:
 * the binary run with `args`, no shell, bounded in time and output) and compare it with the
 * versions the spec was proven on (`cli_version_range`). A version outside the range, or one
 * that cannot be read, is reported (`version_unproven`); the session runs all the same.
 *
 * @module
 */
import { execFile } from 'node:child_process';
import type { CliSpecV4, CliVersionProbe } from '../core/spec/types.js';
import type { DashboardEvent } from './events.js';
import type { SpawnPlan } from './spawn-plan.js';
import { extractVersion, satisfiesRange } from '../core/spec/semver-range.js';

/** The probe is killed after this long (a CLI that starts its TUI instead of printing). */
export const VERSION_PROBE_TIMEOUT_MS = 5000;
/** Output read from the probe at most (bytes). */
const MAX_PROBE_OUTPUT = 64 * 1024;

/** What a version check found. */
export interface VersionVerdict {
  /** The version read, or null when none could be read. */
  found: string | null;
  range: string;
  /** proven: inside the range; outside; unreadable: no version read (or the range does not parse). */
  verdict: 'proven' | 'outside' | 'unreadable';
  /** Why nothing was read (the probe failed, timed out, or printed no version). */
  reason?: string;
}

/** The version in `output` per the probe's regex (first group, else the whole match), else the first x.y.z. */
export function readVersion(output: string, probe: CliVersionProbe): string | null {
  if (typeof probe.regex === 'string') {
    let re: RegExp;
    try {
      re = new RegExp(probe.regex);
    } catch {
      return null;
    }
    const m = re.exec(output);
    if (!m) return null;
    return extractVersion(m[1] ?? m[0]);
  }
  return extractVersion(output);
}

/** The verdict for a version read (or not) against the range. */
export function judgeVersion(found: string | null, range: string, reason?: string): VersionVerdict {
  if (found === null) return { found, range, verdict: 'unreadable', reason: reason ?? 'the output holds no version' };
  const inside = satisfiesRange(found, range);
  if (inside === null) return { found, range, verdict: 'unreadable', reason: `the range "${range}" does not parse` };
  return { found, range, verdict: inside ? 'proven' : 'outside' };
}

/** Runs the probe (never throws: a failure is an `unreadable` verdict with its reason). */
export function checkCliVersion(file: string, probe: CliVersionProbe, range: string, env: NodeJS.ProcessEnv, cwd: string): Promise<VersionVerdict> {
  return new Promise((resolve) => {
    try {
      execFile(file, probe.args, { env, cwd, timeout: VERSION_PROBE_TIMEOUT_MS, maxBuffer: MAX_PROBE_OUTPUT, windowsHide: true }, (err, stdout, stderr) => {
        const output = `${String(stdout)}\n${String(stderr)}`;
        const found = readVersion(output, probe);
        // A non-zero exit that still printed a version counts (some CLIs exit 1 after --version).
        if (found === null && err) resolve(judgeVersion(null, range, `${file} ${probe.args.join(' ')} failed: ${err.message.split('\n')[0]}`));
        else resolve(judgeVersion(found, range));
      });
    } catch (err) {
      resolve(judgeVersion(null, range, `${file} could not be run: ${err instanceof Error ? err.message : String(err)}`));
    }
  });
}

/**
 * Reads the CLI's version when the spec says how (`cli_version` + `cli_version_range`) and
 * reports it once, asynchronously: a log line when proven, else `version_unproven`. Never blocks
 * the session; nothing is emitted once `stopped()` is true.
 */
export function reportCliVersion(spec: CliSpecV4, plan: SpawnPlan, emit: (ev: DashboardEvent) => void, stopped: () => boolean): void {
  const { cli_version: probe, cli_version_range: range } = spec;
  if (!probe || typeof range !== 'string') return;
  void checkCliVersion(plan.resolvedBinary ?? plan.file, probe, range, plan.env, plan.cwd).then((v) => {
    if (stopped()) return;
    if (v.verdict === 'proven') emit({ kind: 'log', level: 'info', message: `cli version ${String(v.found)} is in the proven range ${range}` });
    else emit({ kind: 'version_unproven', found: v.found, range, verdict: v.verdict, ...(v.reason ? { reason: v.reason } : {}) });
  });
}
