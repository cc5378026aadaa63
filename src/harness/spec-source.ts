/**
 * The driver's `specSource` for a spec file: the catalog's loader (size cap, ReDoS screen,
 * line/column errors) with `{{specDir}}`/`{{packageRoot}}` substituted as on the first load, so
 * a hot reload accepts and refuses exactly what `specterm validate` and `run` do.
 *
 * @module
 */
import * as path from 'node:path';
import { loadSpec, materializeSpecPaths } from '../catalog/index.js';
import type { SpecSource } from '../driver/fsm-driver.js';

/** A spec source that reloads `specPath` (resolved now) through the catalog loader. */
export function catalogSpecSource(specPath: string): SpecSource {
  const abs = path.resolve(specPath);
  return {
    path: abs,
    load: () => {
      const r = loadSpec(abs);
      return r.ok ? { ok: true, spec: materializeSpecPaths(r.spec, abs), warnings: r.warnings } : { ok: false, errors: r.errors, warnings: r.warnings };
    },
  };
}
