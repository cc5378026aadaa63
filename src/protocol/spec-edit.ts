/**
 * The spec editor's wire shapes (the dashboard's Spec tab): a session's spec text, its
 * validation (the checks and messages of `specterm validate`), a condition previewed against
 * the live screen, and a save that hot-reloads the running driver.
 * @module
 */
import { z } from 'zod';
import { DebugCondition } from './debug.js';

/** `GET …/spec`: the text of the spec the session runs. */
export const SessionSpec = z.strictObject({
  text: z.string(),
  path: z.string().meta({ description: 'the file the text was read from' }),
  builtin: z.boolean().meta({ description: 'a spec of the package: a save goes to a session-local override under the state dir' }),
  override: z.boolean().meta({ description: 'the session runs a session-local override of a built-in spec' }),
});
export type SessionSpec = z.infer<typeof SessionSpec>;

/** One validation finding: a stable code, the JSON path of the value and the human line. */
export const SpecFinding = z.strictObject({
  code: z.string(),
  path: z.string(),
  message: z.string(),
  line: z.number().int().positive().nullable().meta({ description: 'for JSON syntax errors: where the text stops parsing' }),
  column: z.number().int().positive().nullable(),
});
export type SpecFinding = z.infer<typeof SpecFinding>;

/** At most a spec's size (the loader refuses more with its own message). */
const SpecText = z.string().max(6 * 1024 * 1024);

export const ValidateSpecRequest = z.strictObject({ text: SpecText }).meta({ examples: [{ text: '{"id": "my-agent", "states": []}' }] });

/** `POST …/spec/validate`: what `specterm validate` says about this text. */
export const SpecValidation = z.strictObject({
  ok: z.boolean(),
  errors: z.array(SpecFinding),
  warnings: z.array(SpecFinding),
});
export type SpecValidation = z.infer<typeof SpecValidation>;

export const PreviewConditionRequest = z.strictObject({
  condition: z.record(z.string(), z.unknown()).meta({ description: 'a spec condition (spec-format §3), e.g. {"section": "footer", "matches": "for shortcuts"}' }),
}).meta({ examples: [{ condition: { section: 'footer', matches: 'for shortcuts' } }] });

/** `POST …/spec/preview`: the condition evaluated once on the screen now (spec-format §3.8). */
export const ConditionPreview = z.strictObject({
  result: z.boolean(),
  cond: DebugCondition,
});
export type ConditionPreview = z.infer<typeof ConditionPreview>;

export const SaveSpecRequest = z.strictObject({
  text: SpecText,
  force: z.boolean().default(false).meta({ description: 'write a spec with errors anyway (the running spec stays in force until a valid one is saved)' }),
}).meta({ examples: [{ text: '{"id": "my-agent", "states": []}', force: false }] });

/** `PUT …/spec`: written, and whether the running driver took it. */
export const SpecSaved = z.strictObject({
  path: z.string(),
  override: z.boolean(),
  reloaded: z.boolean().meta({ description: 'false: the session is not running, or the text has errors (saved with force)' }),
  validation: SpecValidation,
});
export type SpecSaved = z.infer<typeof SpecSaved>;

/** `GET /api/v1/spec-schema`: the JSON Schema (draft-07) the daemon's spec loader checks structure with, for editor completion. */
export const SpecJsonSchema = z.record(z.string(), z.unknown()).meta({ description: 'the JSON Schema of adhdev:cli/spec@4, as `specterm schema` prints it' });
export type SpecJsonSchema = z.infer<typeof SpecJsonSchema>;

/** `GET /api/v1/specs`: the built-in specs by id, for a create form's spec picker. */
export const SpecList = z.strictObject({
  specs: z.array(z.strictObject({ id: z.string().meta({ description: 'the id `createSession` takes as `spec`' }) })),
}).meta({ examples: [{ specs: [{ id: 'claude-code' }, { id: 'demo-agent' }] }] });
export type SpecList = z.infer<typeof SpecList>;
