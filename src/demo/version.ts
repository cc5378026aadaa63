/**
 * The Demo Agent's version. `specs/demo-agent/spec.json` declares the range it reads
 * (`cli_version_range`); bump both when the screen layout changes.
 * @module
 */

/** Semver of the Demo Agent's screen contract. */
export const DEMO_AGENT_VERSION = '1.0.0';
