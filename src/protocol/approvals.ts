/**
 * Approvals: a modal on some session's screen, as an object with a stable id and a fingerprint
 * of its content, answered by button and fingerprint (a stale fingerprint is refused with 409).
 * @module
 */
import { z } from 'zod';
import { EpochMs, Id } from './common.js';
import { ApprovalSubject, ModalKind, ModalView, OpenedBy } from './sessions.js';
import { NodeName, Unreachable } from './node.js';

export const Approval = z.strictObject({
  id: Id,
  session_id: Id,
  fingerprint: z.string().min(1).max(128),
  title: z.string().nullable(),
  text: z.string().meta({ description: 'the modal text as on screen' }),
  buttons: z.array(z.strictObject({ index: z.number().int().nonnegative(), label: z.string() })),
  kind: ModalKind.nullable(),
  subject: ApprovalSubject.nullable().optional().meta({ description: 'what the approval asks consent for, as an auto-approve policy judges it (the spec\'s extract.subject)' }),
  first_seen_at: EpochMs,
  opened_by: OpenedBy.optional(),
  node: NodeName.optional(),
  unreachable: Unreachable.optional(),
}).meta({ examples: [{
  id: 'a_91c2', session_id: 's_7f3a9c', fingerprint: 'sha256:5d41402abc4b2a76', title: 'Run command?', text: 'npm test',
  buttons: [{ index: 0, label: 'Yes' }, { index: 1, label: 'No' }], kind: 'approval', first_seen_at: 1764600002000,
}] });
export type Approval = z.infer<typeof Approval>;

export const ApprovalList = z.strictObject({ approvals: z.array(Approval) });
export const ApprovalParams = z.strictObject({ id: Id });

/** `POST /api/v1/approvals/:id`: `button` is the index or the exact label. */
export const AnswerApprovalRequest = z.strictObject({
  button: z.union([z.number().int().nonnegative(), z.string().min(1).max(256)]),
  fingerprint: z.string().min(1).max(128).meta({ description: 'the fingerprint the client saw; refused with 409 when the modal changed' }),
}).meta({ examples: [{ button: 0, fingerprint: 'sha256:5d41402abc4b2a76' }] });

export const AnswerApprovalResult = z.strictObject({
  approval_id: Id,
  button: z.strictObject({ index: z.number().int().nonnegative(), label: z.string() }),
  result: z.enum(['cleared', 'still_shown']).meta({ description: 'whether the modal left the screen after the press' }),
});

/** The extension member of the 409 problem: the modal now on screen (null when none). */
export const StaleApprovalExtension = z.strictObject({ current: ModalView.nullable() });
