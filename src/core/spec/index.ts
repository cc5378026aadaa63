/**
 * The spec module's front door: the `adhdev:cli/spec@4` types, model helpers, the
 * validator, the JSON Schema and the graph renderer. Import from here, not from the
 * files inside this folder.
 *
 * @module
 */

/** Types of a validated spec. */
export * from './types.js';
export type { BackgroundWorkRule } from './background-work.js';
/** Queries over a validated spec (initial state, outgoing transitions, status defaults). */
export * from './model.js';
/** Validation of untrusted spec JSON. */
export { validateSpec, TOP_LEVEL_FIELDS, type ValidateOptions, type ValidationResult, type RegexScreen } from './validate.js';
export { splitIssues } from './validate-context.js';
/** Stable codes of validation and loading issues. */
export { SPEC_ISSUE_CODES, type SpecIssue, type SpecIssueCode } from './issue-codes.js';
/** Condition classification in the evaluator's order. */
export { classifyCondition, type ConditionKind } from './condition-kind.js';
export { oscNumbersOf } from './osc-numbers.js';
/** The JSON Schema of the format, for editors and external tools. */
export { SPEC_JSON_SCHEMA } from './schema.js';
/** Mermaid / Graphviz rendering of the state machine. */
export { buildGraphModel, renderGraph, type GraphFormat, type GraphModel } from './graph.js';
