/**
 * `GET /api/v1/approvals` and `POST /api/v1/approvals/:id`.
 * @module
 */
import type { RouteHandlers } from '../../server/index.js';
import type { ApprovalAnswers } from '../approval-answers.js';
import { toWireApproval } from '../managed-session.js';
import { wrapErrors } from './session-routes.js';

export function approvalRoutes(answers: ApprovalAnswers): RouteHandlers {
  return wrapErrors({
    listApprovals: () => ({ approvals: answers.pending().map(toWireApproval) }),
    answerApproval: (input, ctx) => answers.answer(input.params.id, input.body, ctx.principal.name),
  });
}
