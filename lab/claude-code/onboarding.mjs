/**
 * Claude Code's first-run onboarding for the lab (scenarios with `"onboarding": true`, `"action":
 * "onboarding"`): the CLI starts with `hasCompletedOnboarding` false and shows several startup
 * screens in a row (the theme chooser, then what 2.1.332 shows next). Each is a startup gate
 * (kind confirm: no auto-approve policy answers it). Kept out of lab.mjs so that file stays small.
 *
 * `gates`: one entry per screen, in order: `{ state?, kind, title?, buttons?, buttons_at?, press }` (state
 * default `gate`; a screen with only 'Press Enter to continue' is `notice`). A
 * scenario lists at most the screens it expects; the run stops pressing once the CLI is idle.
 *
 * @module
 */

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const labelsOf = (view) => JSON.stringify((view?.modal?.buttons ?? []).map((b) => b.label));

/**
 * Waits for each gate in turn (a new one is told from the last by other buttons or title), checks
 * its kind, title and buttons, leaves it up a second (never auto-answered) and presses its button.
 * Returns whether every gate's buttons were right, and how many gates were passed.
 */
export async function passGates(sc, session, { check, mark, press, waitMs, size }) {
  let ok = true;
  let before = null;
  let passed = 0;
  for (const [i, want] of (sc.gates ?? []).entries()) {
    const what = `gate[${i}]`;
    const view = await session.waitForState((v) => v.state.id === 'idle' || (v.state.id === (want.state ?? 'gate') && `${labelsOf(v)}|${v.modal?.title}` !== before), waitMs);
    if (view.state.id === 'idle') break;
    mark(`gate ${i} drawn`, { status: 'approval', kind: want.kind ?? 'confirm' });
    check(view.modal?.kind === (want.kind ?? 'confirm'), `${what}: modal kind ${want.kind ?? 'confirm'} (got ${view.modal?.kind})`);
    if (want.title !== undefined) check(view.modal?.title === want.title, `${what}: title ${JSON.stringify(want.title)} (got ${JSON.stringify(view.modal?.title)})`);
    const expected = want.buttons_at?.[`${size.cols}x${size.rows}`] ?? want.buttons;
    const got = (view.modal?.buttons ?? []).map((b) => b.label);
    ok = (expected
      ? check(JSON.stringify(got) === JSON.stringify(expected), `${what}: buttons ${JSON.stringify(expected)} (got ${JSON.stringify(got)})`)
      : check(got.length >= 1, `${what}: at least 1 button (got ${JSON.stringify(got)})`)) && ok;
    await sleep(1000);
    check(session.driver.getCurrentView()?.state.id === (want.state ?? 'gate'), `${what}: stays up until answered (never auto-answered)`);
    before = `${labelsOf(session.driver.getCurrentView())}|${session.driver.getCurrentView()?.modal?.title}`;
    mark(`gate ${i} answered`, null);
    press(session, session.driver.getCurrentView(), want.press ?? 1, check, what);
    passed++;
  }
  check(passed === (sc.gates ?? []).length, `onboarding: passed ${(sc.gates ?? []).length} gate(s) (got ${passed})`);
  mark('onboarding done', { status: 'idle' });
  return ok;
}

/** The expectation entries of an onboarding run: one confirm gate per screen, then idle. */
export function onboardingSequence(sc, size) {
  return (sc.gates ?? []).map((want) => {
    const buttons = want.buttons_at?.[`${size.cols}x${size.rows}`] ?? want.buttons;
    return { state: want.state ?? 'gate', status: 'approval', modal: { kind: want.kind ?? 'confirm', ...(want.title !== undefined ? { title: want.title } : {}), ...(buttons ? { buttons } : {}) } };
  });
}

/** Instants where each gate is certainly up: halfway between its drawing and the lab's press. */
export function onboardingInstants(sc, marks, rel) {
  const at = [];
  for (const drawn of marks.filter((m) => /^gate \d+ drawn$/.test(m.label))) {
    const answered = marks.find((m) => m.label === drawn.label.replace('drawn', 'answered'));
    if (answered && answered.atAbs - drawn.atAbs > 600) at.push({ t: rel((drawn.atAbs + answered.atAbs) / 2), state: sc.gates[Number(drawn.label.split(' ')[1])].state ?? 'gate' });
  }
  return at;
}
