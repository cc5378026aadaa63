/**
 * The spec routes: list the built-in specs (a create form's picker); and the spec editor's: read
 * a session's spec text, validate text with the checks and messages of `specterm validate`,
 * preview a condition on the live screen, and save + hot-reload.
 * A save with errors is refused (422, nothing written) unless forced; even forced, the running
 * spec stays in force (the driver refuses an invalid reload), so a bad edit never stops a session.
 *
 * @module
 */
import fs from 'node:fs';
import { listBuiltinSpecs, loadSpecFromText } from '../../catalog/index.js';
import { prescreenSpecText } from '../../catalog/prescreen.js';
import { evaluateConditionPreview } from '../../core/eval/index.js';
import { SPEC_JSON_SCHEMA } from '../../core/spec/index.js';
import type { Condition } from '../../core/spec/types.js';
import { toDebugCondition, type SpecFinding, type SpecSaved, type SpecValidation } from '../../protocol/index.js';
import { SpectermError } from '../../protocol/index.js';
import type { RouteHandlers } from '../contracts.js';
import { DaemonError } from '../../daemon/errors.js';
import type { ManagedSession } from '../../daemon/managed-session.js';
import type { SessionManager } from '../../daemon/session-manager.js';
import type { SessionSpecFiles } from '../../daemon/spec-files.js';

export interface SpecRouteDeps {
  manager: SessionManager;
  files: SessionSpecFiles;
  now: () => number;
}

/**
 * What `specterm validate` reports for `text` (lenient, as a run loads it). Its regexes are
 * screened first in recheck's agent process: the daemon's event loop never waits on them.
 */
export async function validateSpecText(text: string, sourcePath: string): Promise<SpecValidation> {
  await prescreenSpecText(text);
  const r = loadSpecFromText(text, sourcePath, { redos: 'cached' });
  const finding = (i: (typeof r.issues)[number]): SpecFinding => ({ code: i.code, path: i.path, message: i.message, line: i.line ?? null, column: i.column ?? null });
  return {
    ok: r.ok,
    errors: r.issues.filter((i) => i.severity === 'error').map(finding),
    warnings: r.issues.filter((i) => i.severity === 'warning').map(finding),
  };
}

function specInvalid(validation: SpecValidation): SpectermError {
  const first = validation.errors[0];
  return new SpectermError({
    code: 'SPEC_INVALID', title: 'The spec has errors',
    detail: `the spec has ${validation.errors.length} error(s)${first ? `, first: ${first.message}` : ''}; fix them, or send force: true to write it anyway (the running spec stays in force)`,
    errors: validation.errors.map((e) => ({ path: e.path, code: e.code, message: e.message })),
    extensions: { validation },
  });
}

function reloadInto(session: ManagedSession): boolean {
  const driver = session.driver;
  if (!driver || !session.isRunning) return false;
  if (!driver.reloadSpec()) return false;
  session.spec = driver.getSpec();
  return true;
}

export function specRoutes(d: SpecRouteDeps): RouteHandlers {
  return ({
    getSessionSpec: (input) => {
      const session = d.manager.get(input.params.id);
      const file = d.files.fileOf(session);
      let text: string;
      try {
        text = fs.readFileSync(file.path, 'utf8');
      } catch (error) {
        throw new DaemonError('SPEC_NOT_FOUND', `the spec file ${file.path} cannot be read (${(error as Error).message}); restore it or restart the session with another spec`);
      }
      return { text, ...file };
    },
    getSpecSchema: () => SPEC_JSON_SCHEMA,
    listSpecs: () => ({ specs: listBuiltinSpecs().map((e) => ({ id: e.id })) }),
    validateSessionSpec: async (input) => validateSpecText(input.body.text, d.files.fileOf(d.manager.get(input.params.id)).path),
    previewSpecCondition: (input) => {
      const session = d.manager.get(input.params.id);
      const driver = session.driver;
      if (!driver || !session.isRunning) throw new DaemonError('SESSION_NOT_RUNNING', `session ${session.id} is not running (it exited); restart it (POST …/restart) to preview on its screen`);
      // The edge checked it is an object; the evaluator reports a malformed one as false, never throws.
      const condition = input.body.condition as unknown as Condition;
      const result = evaluateConditionPreview(condition, driver.getSpec().sections, driver.snapshot(), driver.getCursorPosition());
      return { result: result.result, cond: toDebugCondition(result, d.now()) };
    },
    saveSessionSpec: async (input): Promise<SpecSaved> => {
      const session = d.manager.get(input.params.id);
      const validation = await validateSpecText(input.body.text, d.files.fileOf(session).path);
      if (!validation.ok && !input.body.force) throw specInvalid(validation);
      const file = d.files.save(session, input.body.text);
      const reloaded = validation.ok && reloadInto(session);
      return { path: file.path, override: file.override, reloaded, validation };
    },
  });
}
