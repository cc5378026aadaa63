/**
 * Approvals as objects: what question a session's modal asks (its fingerprint) and which
 * sighting of it a person or a policy answers (its id).
 *
 * The id must stay the same while the same modal is up (a client answers "approval X", and a
 * repaint must not invalidate that) and must change when the question changes, including when
 * the same text comes back after it went away: the agent is asking again, and an answer meant
 * for the first sighting must not land on the second. So the id is the session id, the tracker's
 * sequence number at first sight and a short fingerprint.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import type { ModalKind } from '../core/spec/types.js';
import type { ModalSubject } from '../core/eval/extract-subject.js';

/**
 * What the daemon knows of a modal on screen. The driver's `ModalView` gives kind, title and
 * buttons; `body` is the question's text (e.g. the command to run) read from the screen by the caller.
 */
export interface ApprovalModal {
  kind: ModalKind | null;
  title: string | null;
  /** The question's text (several lines allowed); '' when the modal has none. */
  body: string;
  buttons: ReadonlyArray<{ index: number; label: string }>;
  /**
   * The thing consented to, read by the spec's `extract.subject` (the only text a policy judges);
   * absent or null: none isolated. Part of the fingerprint, so the re-read before a press sees a changed one.
   */
  subject?: ModalSubject | null;
  /**
   * True for a modal the CLI shows before its first prompt (folder trust, first-run consent).
   * Such gates are a person's decision, never a policy's, whatever their kind.
   */
  startupGate?: boolean;
  /**
   * Who brought it up (managed-session.ts decides): `person` for the reply to a person's own
   * input, which waits for nobody. Not part of the fingerprint: it says who waits, not what is asked.
   */
  openedBy?: 'person' | 'agent';
}

/** One sighting of a modal, as the daemon lists it and a client answers it. */
export interface Approval {
  /** `<sessionId>.<seq>.<fingerprint[0..12]>`; opaque to clients. */
  id: string;
  sessionId: string;
  /** SHA-256 (hex) of the canonical encoding of kind, title, body and buttons. */
  fingerprint: string;
  kind: ModalKind | null;
  title: string | null;
  body: string;
  buttons: Array<{ index: number; label: string }>;
  /** What the policy judges (see {@link ApprovalModal.subject}); null when none was isolated. */
  subject: ModalSubject | null;
  startupGate: boolean;
  /** True unless this is an `approval` kind outside start-up: only those may ever be auto-answered. */
  needsPerson: boolean;
  /** `person`: opened by the person's own input, so it raises no notification and the inbox does not count it. */
  openedBy: 'person' | 'agent';
  firstSeenAt: number;
}

/** What one `observe` changed. A replaced modal reports both the closed and the opened approval. */
export interface ApprovalObservation {
  opened?: Approval;
  closed?: Approval;
  current: Approval | null;
}

/** A bad argument to the tracker; `code` is stable. */
export class ApprovalError extends Error {
  readonly code: 'APPROVAL_BAD_SESSION_ID' | 'APPROVAL_BAD_MODAL' | 'APPROVAL_BAD_TIME' | 'APPROVAL_BAD_OPTION';
  constructor(code: ApprovalError['code'], message: string) {
    super(message);
    this.name = 'ApprovalError';
    this.code = code;
  }
}

/** Bumped when the encoding changes, so old and new fingerprints never collide by accident. */
const FINGERPRINT_VERSION = 'specterm.approval.v3';
/** 12 hex digits = 48 bits: enough to tell two modals of one session apart in an id. */
const ID_FINGERPRINT_CHARS = 12;
/** Session ids end up in approval ids and URLs: keep them to URL-safe characters. */
const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Trailing blanks and blank last lines depend on the terminal's width and repaint, not on
 * the question; dropping them keeps one modal's fingerprint steady across repaints.
 */
function normaliseText(text: string): string {
  return text.split('\n').map((line) => line.replace(/\s+$/, '')).join('\n').replace(/\n+$/, '');
}

/** A cursor marker in front of an option row (Claude's ❯, Codex's ›, radio dots, …). */
const CURSOR_MARKER = /^(\s*)[❯›>▸▶►→●◉○◯](\s*)(.*)$/u;

/**
 * The question's text with the cursor marker taken off every option row: moving the cursor is
 * not a new question (a person arrowing through the options must not raise a new approval at
 * each step). A row is an option row when, after the marker, it starts with a button's index
 * (`2.`, `2)`) or its label.
 */
function withoutCursor(body: string, buttons: ApprovalModal['buttons']): string {
  return body.split('\n').map((line) => {
    const m = CURSOR_MARKER.exec(line);
    if (!m) return line;
    const rest = m[3]!;
    const isOption = buttons.some((b) => rest.startsWith(`${b.index}.`) || rest.startsWith(`${b.index})`) || (b.label.length > 0 && rest.startsWith(b.label)));
    return isOption ? `${m[1]} ${m[2]}${rest}` : line;
  }).join('\n');
}

function checkModal(modal: ApprovalModal): void {
  const bad = (what: string): never => {
    throw new ApprovalError('APPROVAL_BAD_MODAL', `modal: ${what}; pass the driver's ModalView plus the question text as a string`);
  };
  if (typeof modal !== 'object' || modal === null) bad(`expected an object, got ${String(modal)}`);
  if (typeof modal.body !== 'string') bad(`body must be a string, got ${typeof modal.body}`);
  if (modal.title !== null && typeof modal.title !== 'string') bad(`title must be a string or null, got ${typeof modal.title}`);
  if (!Array.isArray(modal.buttons)) bad(`buttons must be an array, got ${typeof modal.buttons}`);
  modal.buttons.forEach((b, i) => {
    if (!Number.isInteger(b?.index) || typeof b?.label !== 'string') bad(`buttons[${i}] must be {index: integer, label: string}, got ${JSON.stringify(b)}`);
  });
  const subject = modal.subject;
  if (subject !== undefined && subject !== null && (typeof subject !== 'object' || !(subject.text === null || typeof subject.text === 'string'))) {
    bad(`subject must be null or {kind, text: string or null, problem}, got ${JSON.stringify(subject)}`);
  }
}

/**
 * SHA-256 over a canonical encoding of what the modal asks: a JSON array in a fixed order
 * (version, kind, title, normalised body, [index, label] per button, [kind, text, problem] of
 * the subject or null). JSON of arrays of
 * strings and numbers has one spelling, so equal questions give equal fingerprints.
 * `startupGate` is not part of it: it says who may answer, not what is asked.
 *
 * @example modalFingerprint({ kind: 'approval', title: 'Run?', body: 'npm test', buttons: [{ index: 1, label: 'Yes' }] }) // 64 hex digits
 */
export function modalFingerprint(modal: ApprovalModal): string {
  checkModal(modal);
  const canonical = JSON.stringify([
    FINGERPRINT_VERSION,
    modal.kind,
    modal.title === null ? null : normaliseText(modal.title),
    normaliseText(withoutCursor(modal.body, modal.buttons)),
    modal.buttons.map((b) => [b.index, normaliseText(b.label)]),
    // The subject exactly as judged: a press is only made on the subject the decision saw.
    modal.subject ? [modal.subject.kind, modal.subject.text, modal.subject.problem] : null,
  ]);
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

/** Whether a modal may ever be answered by a policy: only an `approval` that is not a start-up gate. */
export function isAutoAnswerable(modal: Pick<ApprovalModal, 'kind' | 'startupGate'>): boolean {
  return modal.kind === 'approval' && modal.startupGate !== true;
}

/** Options for {@link ApprovalTracker}. */
export interface ApprovalTrackerOptions {
  /**
   * First sequence number to hand out. A daemon that restarts passes one past the last it
   * stored, so a new sighting never reuses an id an old answer may still name. Default 1.
   */
  firstSeq?: number;
}

/**
 * Turns each session's stream of "modal on screen now" into approval objects.
 *
 * @example
 * const tracker = new ApprovalTracker();
 * const { opened } = tracker.observe('s1', modal, Date.now()); // opened.id = 's1.1.3fa9…'
 * tracker.observe('s1', modal, Date.now());                   // same id, nothing opened
 * tracker.observe('s1', null, Date.now());                    // closed: the approval above
 */
export class ApprovalTracker {
  readonly #current = new Map<string, Approval>();
  /** Ids of open approvals someone is pressing a button on; one press per sighting, whoever presses. */
  readonly #claimed = new Set<string>();
  #nextSeq: number;

  constructor(options: ApprovalTrackerOptions = {}) {
    const first = options.firstSeq ?? 1;
    if (!Number.isSafeInteger(first) || first < 1) {
      throw new ApprovalError('APPROVAL_BAD_OPTION', `firstSeq must be a positive integer, got ${String(first)}; pass one past the last stored sequence number`);
    }
    this.#nextSeq = first;
  }

  /** Records what the session shows now (null: no modal) at `now` (ms). */
  observe(sessionId: string, modal: ApprovalModal | null, now: number): ApprovalObservation {
    if (typeof sessionId !== 'string' || !SESSION_ID_PATTERN.test(sessionId)) {
      throw new ApprovalError('APPROVAL_BAD_SESSION_ID', `sessionId ${JSON.stringify(sessionId)} must be 1–128 characters of A-Z a-z 0-9 _ -`);
    }
    if (!Number.isFinite(now)) throw new ApprovalError('APPROVAL_BAD_TIME', `now must be a finite number of ms, got ${String(now)}`);
    const previous = this.#current.get(sessionId) ?? null;
    if (modal === null) {
      if (!previous) return { current: null };
      this.#close(previous);
      return { closed: previous, current: null };
    }
    const fingerprint = modalFingerprint(modal);
    if (previous?.fingerprint === fingerprint) return { current: previous };
    if (previous) this.#close(previous);
    const opened = this.#open(sessionId, modal, fingerprint, now);
    return previous ? { opened, closed: previous, current: opened } : { opened, current: opened };
  }

  /** The approval a session shows now, or null. */
  current(sessionId: string): Approval | null {
    return this.#current.get(sessionId) ?? null;
  }

  /** Every open approval, oldest first sighting first. */
  pending(): Approval[] {
    return [...this.#current.values()].sort((a, b) => a.firstSeenAt - b.firstSeenAt);
  }

  /** Looks an approval up by id among the open ones. */
  find(approvalId: string): Approval | null {
    for (const approval of this.#current.values()) if (approval.id === approvalId) return approval;
    return null;
  }

  /** Forgets a removed session; returns its open approval (now closed), if any. */
  forget(sessionId: string): Approval | null {
    const open = this.#current.get(sessionId) ?? null;
    if (open) this.#close(open);
    return open;
  }

  /**
   * Reserves an open approval for one press (the policy's or a person's). False when it is not
   * open any more or someone else holds it: two answerers racing must not press twice.
   */
  claim(approvalId: string): boolean {
    if (this.#claimed.has(approvalId) || !this.find(approvalId)) return false;
    this.#claimed.add(approvalId);
    return true;
  }

  /** Gives a claim back when nothing was pressed, so a person can still answer. */
  release(approvalId: string): void {
    this.#claimed.delete(approvalId);
  }

  /** The sequence number the next sighting gets (store it to resume after a restart). */
  get nextSeq(): number {
    return this.#nextSeq;
  }

  #close(approval: Approval): void {
    this.#current.delete(approval.sessionId);
    this.#claimed.delete(approval.id);
  }

  #open(sessionId: string, modal: ApprovalModal, fingerprint: string, now: number): Approval {
    const seq = this.#nextSeq++;
    const startupGate = modal.startupGate === true;
    const approval: Approval = {
      id: `${sessionId}.${seq}.${fingerprint.slice(0, ID_FINGERPRINT_CHARS)}`,
      sessionId,
      fingerprint,
      kind: modal.kind,
      title: modal.title,
      body: modal.body,
      buttons: modal.buttons.map((b) => ({ index: b.index, label: b.label })),
      subject: modal.subject ?? null,
      startupGate,
      needsPerson: !isAutoAnswerable(modal),
      openedBy: modal.openedBy ?? 'agent',
      firstSeenAt: now,
    };
    this.#current.set(sessionId, approval);
    return approval;
  }
}
