/**
 * The Gemini lab's ground truth: which time of a session is labelled with which status, from the
 * scripted server's log and the lab's actions, and how much of it the driver got right (the
 * `.labels.json` beside each recording, scored again by lab/accuracy-index.mjs).
 */

/**
 * Labelled time from ground truth: generating = open streams; approval = a function call awaiting
 * the user's answer, from the confirmation on screen (the lab's screen poll) until the lab's answer key (or the tool result); picker = from 1 s after /model
 * until Esc; idle = from 1.5 s after a turn ended until the next lab action or labelled dialog/stream,
 * merged and never over another label. Flaps = driver status
 * changes farther than 2.5 s from every ground-truth event.
 */
export function measureSession({ startedAt, endedAt, changes, log, actions }) {
  const intervals = [];
  let open = null;
  for (const e of log) {
    if (e.event === 'stream_start') open = e.t;
    if ((e.event === 'stream_end' || e.event === 'stream_aborted') && open !== null) { intervals.push({ from: open, to: e.t, status: 'generating' }); open = null; }
    if (e.event === 'tool_call_pending') {
      const drawn = actions.find((a) => a.what === 'approval_drawn' && a.t >= e.t);
      // Until the lab's answer (its key press), as lab/lib/lab-kit.mjs does; the tool's own run after an approve is not approval.
      const answer = [...log.filter((x) => x.event === 'tool_result' && x.t >= e.t).map((x) => x.t), ...actions.filter((a) => (a.what === 'deny' || a.what === 'approve') && a.t >= e.t).map((a) => a.t)].sort((a, b) => a - b)[0] ?? endedAt;
      intervals.push({ from: drawn && drawn.t < answer ? drawn.t : e.t, to: answer, status: 'approval' });
    }
  }
  const pickerOpen = actions.find((a) => a.what === 'picker_open');
  const pickerClose = actions.find((a) => a.what === 'picker_close');
  if (pickerOpen && pickerClose) intervals.push({ from: pickerOpen.t + 1000, to: pickerClose.t, status: 'approval' });
  const modalShown = actions.find((a) => a.what === 'modal_shown');
  const modalAnswered = actions.find((a) => a.what === 'modal_answered');
  if (modalShown && modalAnswered) intervals.push({ from: modalShown.t, to: modalAnswered.t, status: 'approval' });
  const trustShown = actions.find((a) => a.what === 'ready_trust');
  const trustAnswered = actions.find((a) => a.what === 'trust');
  if (trustShown && trustAnswered) intervals.push({ from: trustShown.t, to: trustAnswered.t, status: 'approval' });
  // Idle: after each quiet point (ready, turn end, denial, picker closed) until the next action/stream.
  const events = [...log.map((e) => ({ t: e.t, what: e.event, fc: e.functionCall })), ...actions.map((a) => ({ t: a.t, what: a.what }))].sort((a, b) => a.t - b.t);
  const quiet = events.filter((e) => e.what === 'ready' || (e.what === 'stream_end' && !e.fc) || e.what === 'deny' || e.what === 'picker_close' || e.what === 'modal_answered');
  const busy = [...intervals];
  const idle = [];
  for (const q of quiet) {
    const from = q.what === 'ready' ? q.t : q.t + 1500;
    const next = events.slice(events.indexOf(q) + 1).find((e) => ['submit', 'picker_open', 'stream_start', 'approve', 'deny'].includes(e.what));
    // A dialog or stream that begins after the quiet point ends the quiet too (the loop-detection dialog opens as the stream ends).
    const to = Math.min(next ? next.t : endedAt, ...busy.filter((iv) => iv.from > q.t).map((iv) => iv.from));
    if (to > from) idle.push({ from, to, status: 'idle' });
  }
  // Several quiet points before one next action are one idle stretch, and idle never covers a
  // labelled dialog or stream: each millisecond is labelled once (the figures counted it twice).
  for (const iv of mergeOverlapping(idle)) intervals.push(...subtract(iv, busy));
  const statusAt = (t) => { let cur = null; for (const c of changes) { if (startedAt + c.t * 1000 <= t) cur = c.status; else break; } return cur; };
  let labelled = 0; let right = 0;
  for (const iv of intervals) {
    for (let t = iv.from; t < iv.to; t += 20) { labelled += 20; if (statusAt(t) === iv.status) right += 20; }
  }
  const gt = [startedAt, ...events.map((e) => e.t)];
  let flaps = 0;
  let prev = null;
  for (const c of changes) {
    if (prev !== null && c.status !== prev) {
      const at = startedAt + c.t * 1000;
      if (!gt.some((t) => at >= t - 1000 && at <= t + 2500)) flaps++;
    }
    prev = c.status;
  }
  return { labelledMs: labelled, rightMs: right, flaps, intervals: intervals.map((iv) => ({ ...iv, from: iv.from - startedAt, to: iv.to - startedAt })) };
}

/** Same-status intervals merged where they overlap or touch. */
function mergeOverlapping(list) {
  const merged = [];
  for (const iv of [...list].sort((a, b) => a.from - b.from)) {
    const last = merged[merged.length - 1];
    if (last && iv.from <= last.to) last.to = Math.max(last.to, iv.to);
    else merged.push({ ...iv });
  }
  return merged;
}

/** The parts of `iv` outside every interval of `others`. */
function subtract(iv, others) {
  let parts = [iv];
  for (const o of others) {
    parts = parts.flatMap((p) => (o.to <= p.from || o.from >= p.to ? [p] : [
      ...(o.from > p.from ? [{ ...p, to: o.from }] : []),
      ...(o.to < p.to ? [{ ...p, from: o.to }] : []),
    ]));
  }
  return parts;
}
