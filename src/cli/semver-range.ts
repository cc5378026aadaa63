/** The semver range check lives in the core (the driver's version check uses it too). */
export { extractVersion, satisfiesRange } from '../core/spec/semver-range.js';
