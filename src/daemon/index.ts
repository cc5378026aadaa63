/**
 * The daemon's parts, for the session manager and the server to wire (see docs/daemon-approvals.md).
 */

/** Approvals as objects: fingerprint and id of a modal's question. */
export { ApprovalError, ApprovalTracker, isAutoAnswerable, modalFingerprint } from './approval.js';
export type { Approval, ApprovalModal, ApprovalObservation, ApprovalTrackerOptions } from './approval.js';

/** The per-session auto-approve policy and its safe executor. */
export { ApprovalPolicyError, createApprovalPolicy, decideApproval } from './approval-policy.js';
export type { ApprovalPolicy, ApprovalPolicyInput, PolicyButton, PolicyDecision, PolicyRuleInput } from './approval-policy.js';
export { answerApproval, waitUntilCleared } from './approval-executor.js';
export type { AnswerApprovalDeps, AnswerOutcome, AnswerResult, ApprovalAuditEntry, WaitUntilClearedOptions } from './approval-executor.js';

/** Notifications to webhooks, and the signature receivers verify. */
export { postWithFetch, WebhookDispatcher } from './webhooks.js';
export type { NotificationEvent, NotificationType, PostFn, WebhookDispatcherOptions, WebhookReport, WebhookStats } from './webhooks.js';
export { isLoopbackHost, NOTIFICATION_TYPES, WebhookConfigError } from './webhook-config.js';
export type { WebhookConfig } from './webhook-config.js';
export { DEFAULT_TOLERANCE_SEC, SIGNATURE_HEADER, signatureHeader, signWebhookBody, verifyWebhookSignature } from './webhook-signature.js';
export type { SignatureCheck } from './webhook-signature.js';

/** Notifications derived from a driver's events, fanned out to subscribers, the desktop and webhooks. */
export type { Notification } from './notifications.js';
export { DesktopNotifier, desktopMessage, safeText } from './desktop-notifier.js';
export type { DesktopMessage, DesktopNotifierOptions, DesktopReport } from './desktop-notifier.js';
/** The WebSocket terminal stream: snapshot + bytes by seq, backpressure, the controller lease (docs/daemon.md). */
export { TerminalStream } from './terminal-topic.js';
export type { TerminalSession, TerminalSessionLookup, TerminalStreamOptions } from './terminal-topic.js';
export { DEFAULT_FEED_RING_BYTES, TerminalFeed } from './terminal-feed.js';
export type { FeedListener, TerminalFeedOptions, TerminalSnapshot, TerminalSource } from './terminal-feed.js';
export { DEFAULT_VIEWER_LIMITS, TerminalViewer } from './terminal-viewer.js';
export type { ViewerLimits, ViewerSink, ViewerState } from './terminal-viewer.js';
export { TerminalLeases } from './terminal-lease.js';
export type { LeaseHolder, LeaseView } from './terminal-lease.js';
export { TerminalStreamError } from './terminal-errors.js';
export type { TerminalStreamErrorCode } from './terminal-errors.js';
