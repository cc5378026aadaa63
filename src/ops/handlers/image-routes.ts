/**
 * `POST /api/v1/sessions/:id/images`: an image (base64 JSON, capped by the protocol) handed to
 * the driver's `attach_image`, which checks its bytes, writes it to a private temp file
 * (removed at shutdown) and types it in with the spec's attach_image control. A spec without
 * that control refuses with 409 and says so.
 *
 * @module
 */
import type { RouteHandlers } from '../contracts.js';
import { DaemonError } from '../../daemon/errors.js';
import type { SessionManager } from '../../daemon/session-manager.js';
import { refusedUnless, runningDriver } from './session-routes.js';

export function imageRoutes(d: { manager: SessionManager }): RouteHandlers {
  return ({
    attachImage: (input) => {
      const session = d.manager.get(input.params.id);
      const driver = runningDriver(session);
      const control = (session.spec.control_bar ?? []).find((c) => c.action.type === 'attach_image');
      if (!control) {
        throw new DaemonError('COMMAND_REFUSED', `NOT_SUPPORTED: spec ${session.spec.id} has no attach_image control, so session ${session.id} cannot take an image; add one to the spec's control_bar (see docs/spec-format.md)`);
      }
      refusedUnless(driver.dispatch({ kind: 'attach_image', blob: input.body.data, mime: input.body.mime }));
      return { attached_bytes: Buffer.from(input.body.data, 'base64').length, control_id: control.id };
    },
  });
}
