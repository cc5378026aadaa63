/**
 * Launch planning: what the driver spawns (the given plan, or one worked out from the spec and
 * the options) and the CLI's trust store edited before the spawn (pre_launch_trust). Outcomes are
 * reported as driver events; nothing here throws.
 *
 * @module
 */
import type { CliSpecV4 } from '../core/spec/types.js';
import type { DashboardEvent } from './events.js';
import type { FsmDriverOptions } from './driver-options.js';
import { isSpawnPlanError, planSpawn, type SpawnPlan } from './spawn-plan.js';
import { applyPreLaunchTrust } from './pre-launch-trust.js';

/**
 * The plan to spawn, with pre-launch trust applied; null (after a `spawn_error` event) when the
 * spec's binary cannot be planned — the caller then stops.
 */
export function planLaunch(
  spec: CliSpecV4,
  opts: FsmDriverOptions,
  size: { cols: number; rows: number },
  platform: NodeJS.Platform,
  emit: (ev: DashboardEvent) => void,
): SpawnPlan | null {
  let plan = opts.spawnPlan;
  if (!plan) {
    const r = planSpawn({
      spec,
      workingDir: opts.workingDir,
      extraArgs: opts.extraArgs,
      removeArgs: opts.removeArgs,
      extraEnv: opts.extraEnv,
      baseEnv: opts.baseEnv,
      platform,
      cols: size.cols,
      rows: size.rows,
    });
    if (isSpawnPlanError(r)) {
      emit({ kind: 'spawn_error', message: r.message, binary: r.binary ?? spec.binary, searched: r.searched ?? [] });
      return null;
    }
    plan = r;
  }
  if (spec.pre_launch_trust && opts.applyTrust !== false) {
    // `~` is the child's: a session started with its own HOME reads its trust store there.
    const r = applyPreLaunchTrust(spec.pre_launch_trust, opts.workingDir, { homeDir: opts.homeDir ?? plan.env.HOME, env: plan.env });
    const level = r.status === 'error' ? 'warn' : 'info';
    emit({ kind: 'log', level, message: `pre_launch_trust: ${r.status}${r.file ? ` ${r.file}` : ''}${r.message ? ` — ${r.message}` : ''}` });
  }
  return plan;
}
