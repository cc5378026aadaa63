/**
 * Key-script scenarios of the Codex lab: menus reached by a sequence of keys (a slash command,
 * then a row of its menu, then an answer), each step waiting for the state it should lead to and
 * checking the modal drawn there. The lab (lab.mjs) runs the Codex session; this module drives
 * it and turns the lab's marks into the labelled intervals of the recording.
 *
 * Scenario field `keys` — a list of steps, run in order:
 * ```json
 * [ { "type": "/permissions", "then": "\r", "state": "picker" },
 *   { "press": "3", "state": "trust", "modal": { "title": "Enable full access?", "kind": "confirm", "buttons": ["…"] } },
 *   { "answer": 1, "state": "idle" } ]
 * ```
 * `type` is typed key by key (Codex reads a burst of bytes as a paste and would not open its
 * slash popup), `then` follows 250 ms later; `press` writes its bytes at once; `answer` presses a
 * button of the current modal the way a client does (the spec's key for it). `state` is the state
 * the step must reach; `modal` (optional) is what must be read there, exactly.
 */

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Statuses of the spec's states, for the labels (a modal state reports `approval`). */
const STATUS = { idle: 'idle', starting: 'idle', busy: 'generating', approval: 'approval', picker: 'approval', list_picker: 'approval', trust: 'approval', full_access: 'approval', view: 'approval', mention: 'approval' };

/** Checks a scenario's `keys` field; throws naming the step and the fix. */
export function checkKeys(keys, where) {
  if (!Array.isArray(keys) || !keys.length) throw new Error(`${where}.keys: expected a non-empty list of steps, got ${JSON.stringify(keys)}`);
  keys.forEach((k, i) => {
    const at = `${where}.keys[${i}]`;
    const acts = ['type', 'press', 'answer'].filter((f) => f in k);
    if (acts.length !== 1) throw new Error(`${at}: expected exactly one of "type", "press", "answer", got ${JSON.stringify(k)}`);
    if (typeof k.state !== 'string' || !(k.state in STATUS)) throw new Error(`${at}.state: expected one of ${Object.keys(STATUS).join(', ')}, got ${JSON.stringify(k.state)}`);
  });
}

/** The modal's title, kind and button labels, compared with a step's `modal`. */
function modalMatches(modal, want) {
  if (!modal) return false;
  if (want.title !== undefined && modal.title !== want.title) return false;
  if (want.kind !== undefined && modal.kind !== want.kind) return false;
  if (want.buttons && JSON.stringify(modal.buttons.map((b) => b.label)) !== JSON.stringify(want.buttons)) return false;
  return true;
}

/**
 * Runs the steps against the live session `s`. `mark(what, extra)` notes a lab action (absolute
 * time), `check(ok, what)` records a check. A person reads each menu before the next key.
 */
export async function runKeys(s, keys, { mark, check }) {
  for (const [i, k] of keys.entries()) {
    if (k.type !== undefined) {
      const [first, ...rest] = Array.from(k.type);
      s.driver.dispatch({ kind: 'pty_write', data: first });
      // The first key waits for Codex to read input at all (its start-up blocks the input loop).
      if (first === '/') await s.waitForScreen(/(?:^|\n)› \//, 20_000);
      await sleep(first === '/' ? 1000 : 60);
      for (const ch of rest) {
        s.driver.dispatch({ kind: 'pty_write', data: ch });
        await sleep(60);
      }
      if (k.then !== undefined) {
        await sleep(250);
        s.driver.dispatch({ kind: 'pty_write', data: k.then });
      }
      mark('key', { step: i, state: k.state });
    } else if (k.press !== undefined) {
      s.driver.dispatch({ kind: 'pty_write', data: k.press });
      mark('key', { step: i, state: k.state });
    } else {
      const button = s.driver.getCurrentView()?.modal?.buttons?.find((b) => b.index === k.answer);
      mark('answer', { index: k.answer }); // the lab's ground truth: a question is answered here
      mark('key', { step: i, state: k.state, answer: k.answer });
      const r = s.driver.dispatch({ kind: 'click_modal_button', index: k.answer, label: button?.label });
      if (r && r.ok === false) check(false, `step ${i}: answering button ${k.answer}: ${r.code} ${r.reason}`);
    }
    // With a `modal`, the step waits for that modal: a second prompt in the same state (the
    // terminal-input approval after the command approval) is told from the first by its buttons.
    const view = await s.waitForState(k.modal ? (v) => v.state.id === k.state && modalMatches(v.modal, k.modal) : k.state, 15_000);
    if (k.modal) check(modalMatches(view.modal, k.modal), `step ${i}: ${k.state} reads ${JSON.stringify(k.modal)} (got ${JSON.stringify(view.modal)})`);
    else check(true, `step ${i}: reached ${k.state}`);
    await sleep(k.state === 'idle' ? 2000 : 1500); // a person reads the menu
  }
}

/**
 * Labelled intervals from the marks: after each key, from 1 s later (Codex's own draw time is
 * not ours) until the next key, the status of the state that key leads to; after the last one
 * until `stopAt`, 1.5 s later (the settle of a return to the composer). A model turn a key
 * started is the server's to label (`busy`: its text streams, generating): the key intervals
 * are cut where such a stream runs, and resume 1.5 s after it ended.
 */
export function keyLabels(marks, stopAt, busy = []) {
  const keys = marks.filter((m) => m.what === 'key');
  const out = [];
  keys.forEach((m, i) => {
    const status = STATUS[m.state];
    let from = m.t + (i === keys.length - 1 && status === 'idle' ? 1500 : 1000);
    const to = keys[i + 1]?.t ?? stopAt;
    for (const b of [...busy].sort((x, y) => x.start - y.start)) {
      if (b.start >= to || b.end + 1500 <= from) continue;
      if (b.start > from) out.push({ from, to: b.start, status });
      from = Math.max(from, b.end + 1500);
    }
    if (to > from) out.push({ from, to, status });
  });
  return out;
}

/**
 * Joins overlapping intervals of the same status. A question the model asks in a key script
 * (request_user_input) is labelled twice — from the server's tool_call_pending and from the key
 * that provoked it — and the accuracy figures must count that time once.
 */
export function mergeLabels(labels) {
  const out = [];
  for (const l of [...labels].sort((a, b) => a.from - b.from)) {
    const prev = out.findLast((p) => p.status === l.status && p.to >= l.from);
    if (prev) prev.to = Math.max(prev.to, l.to);
    else out.push({ ...l });
  }
  return out;
}
