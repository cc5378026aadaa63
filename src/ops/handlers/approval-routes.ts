/**
 * `GET /api/v1/approvals` and `POST /api/v1/approvals/:id`.
 * @module
 */
import type { RouteHandlers } from '../contracts.js';
import type { ApprovalAnswers } from '../../daemon/approval-answers.js';
import { toWireApproval } from '../../daemon/managed-session.js';

/** `node`: this daemon's name, stamped on each approval listed. */
export function approvalRoutes(answers: ApprovalAnswers, node: string): RouteHandlers {
  return ({
    listApprovals: () => ({ approvals: answers.pending().map((a) => toWireApproval(a, node)) }),
    answerApproval: (input, ctx) => answers.answer(input.params.id, input.body, ctx.principal.name, ctx.callerSession),
  });
}
