/**
 * Catalog front door: loading spec files from disk and the recheck-backed ReDoS screen.
 *
 * @module
 */

/** Read + parse + validate a spec file (never throws). */
export { loadSpec, loadSpecFromText, MAX_SPEC_BYTES, type LoadResult, type LoadSpecOptions } from './load-spec.js';
/** The ReDoS screen passed to `validateSpec` by the loader. */
export { screenRegexWithRecheck } from './redos.js';
/** Built-in specs (`specs/<id>/spec.json`) and `<spec-id|path>` references. */
export {
  builtinSpecsDir, packageRoot, listBuiltinSpecs, resolveSpecRef, materializeSpecPaths, loadSpecRef, type BuiltinSpecEntry, type SpecRef,
} from './builtin.js';
