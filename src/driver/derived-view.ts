/**
 * The driver's derived view: what a `state_changed` event reports about the current state — its
 * modal (latched with the state it was read in), its title and its control bar — and the view as
 * last emitted. It is worked out after every decision, full or re-decided, so it allocates nothing
 * while the view stays: the control bar is cached per spec and state, and an unchanged view keeps
 * its objects.
 *
 * @module
 */
import type { CliSpecV4, FsmState } from '../core/spec/types.js';
import { modalKindForState, statusForState } from '../core/spec/model.js';
import type { ModalSnapshot, ResolvedSection } from '../core/eval/types.js';
import { deriveModal, extractTitle, resolveSections, type FrameCells, type RowCache } from '../core/eval/index.js';
import type { ControlView, ModalView, StateView } from './events.js';
import { BackgroundWorkReader, type BackgroundWork } from './background-work.js';
import type { LatchedModal } from './screen-commands.js';

/** The view as last emitted. */
export interface CurrentView {
  state: StateView;
  modal: LatchedModal | null;
  controls: ControlView[];
}

/** What an evaluation read, as the view needs it: the frame's sections and text, and the viewport. */
export interface ViewFrame {
  sections: ResolvedSection[];
  text: () => string;
  viewport: readonly string[];
}

/** What the view reads from the driver. */
export interface DerivedViewHost {
  spec(): CliSpecV4;
  stateId(): string;
  /** The viewport's rows (for a non-modal state's buttons). */
  viewportLines(): readonly string[];
  /** The screen's cells under the guard frame or the viewport (wrapped labels read them). */
  frameCells(frame: 'guard' | 'viewport'): FrameCells;
  warn(message: string): void;
}

export class DerivedView {
  readonly #host: DerivedViewHost;
  /** Viewport-only reads share the driver's viewport row cache. */
  readonly #viewportRowCache: RowCache;
  #current: CurrentView | null = null;
  #controlsCache: { spec: CliSpecV4; stateId: string; controls: ControlView[] } | null = null;
  /** The spec's background_work rules, compiled once per spec (a hot reload brings new ones). */
  #background: { spec: CliSpecV4; reader: BackgroundWorkReader } | null = null;
  /** Modal states without an extract.buttons rule, warned about once each. */
  readonly #warnedModalStates = new Set<string>();

  constructor(host: DerivedViewHost, viewportRowCache: RowCache) {
    this.#host = host;
    this.#viewportRowCache = viewportRowCache;
  }

  /** The view as last emitted, or null before the first. */
  current(): CurrentView | null {
    return this.#current;
  }

  /**
   * Works out the view of `state` on this frame and keeps it. Returns it when it is to be emitted
   * (`force`, the first, or the state, title, modal or controls changed), else null.
   */
  update(state: FsmState, force: boolean, viewportText: () => string, frame: ViewFrame): CurrentView | null {
    const modal = this.#deriveModal(state, frame);
    const title = modal?.title ?? this.#deriveTitle(state, viewportText);
    const controls = this.#deriveControls();
    const background = this.#readBackground(frame.viewport, viewportText);
    const prev = this.#current;
    if (!force && prev && modal === null && prev.modal === null && prev.controls === controls && prev.state.background === background
      && prev.state.id === state.id && prev.state.title === title && prev.state.label === state.label) {
      // Nothing to report, and the view as it stands is still exact: no new objects per frame.
      return null;
    }
    const next: CurrentView = { state: { id: state.id, label: state.label, title, status: statusForState(state), ...(background && { background }) }, modal, controls };
    const changed = force || !prev || prev.state.id !== next.state.id || prev.state.title !== next.state.title
      || prev.state.background !== background || !sameModal(prev.modal, next.modal) || !sameControls(prev.controls, next.controls);
    this.#current = next;
    return changed ? next : null;
  }

  /**
   * Modal states read the guard frame — the viewport plus 200 lines of scrollback — so a tall
   * modal whose top scrolled away still parses (§13.2), and guards and extraction see the same
   * text (§13.3). Other states read the viewport.
   */
  #deriveModal(state: FsmState, frame: ViewFrame): LatchedModal | null {
    if (!state.extract?.buttons) {
      if (state.modal && !this.#warnedModalStates.has(state.id)) {
        this.#warnedModalStates.add(state.id);
        this.#host.warn(`state "${state.id}" is modal but has no extract.buttons rule`);
      }
      return null;
    }
    let m: ModalSnapshot | null;
    if (state.modal) {
      m = deriveModal(state, frame.sections, frame.text, this.#host.frameCells('guard'));
    } else {
      const lines = this.#host.viewportLines() as string[];
      m = deriveModal(state, resolveSections(this.#host.spec().sections, lines, undefined, this.#viewportRowCache), lines.join('\n'), this.#host.frameCells('viewport'));
    }
    return m ? { title: m.title, buttons: m.buttons, kind: modalKindForState(state), stateId: state.id } : null;
  }

  /** The background work on the live screen (the viewport, whatever the state reads), or undefined. */
  #readBackground(viewport: readonly string[], viewportText: () => string): BackgroundWork | undefined {
    const spec = this.#host.spec();
    if (!spec.background_work) return undefined;
    if (this.#background?.spec !== spec) this.#background = { spec, reader: new BackgroundWorkReader(spec.background_work, this.#viewportRowCache) };
    const reader = this.#background.reader;
    const sections = reader.needsSections ? resolveSections(spec.sections, viewport as string[], viewportText, this.#viewportRowCache) : [];
    return reader.read(sections, viewport) ?? undefined;
  }

  #deriveTitle(state: FsmState, viewportText: () => string): string | null {
    const rule = state.extract?.title;
    if (!rule) return null;
    const text = viewportText();
    return extractTitle(rule, resolveSections(this.#host.spec().sections, text.split('\n'), text, this.#viewportRowCache), text);
  }

  /** The control bar of the current state; the same array while spec and state stay (it is compared every evaluation). */
  #deriveControls(): ControlView[] {
    const spec = this.#host.spec();
    const stateId = this.#host.stateId();
    const cached = this.#controlsCache;
    if (cached && cached.spec === spec && cached.stateId === stateId) return cached.controls;
    const out: ControlView[] = [];
    for (const c of spec.control_bar ?? []) {
      if (c.visible_when_state && !c.visible_when_state.includes(stateId)) continue;
      out.push({ id: c.id, label: c.label, action_type: c.action.type });
    }
    this.#controlsCache = { spec, stateId, controls: out };
    return out;
  }
}

/** The public shape of a latched modal (without the state it was latched in). */
export function toModalView(m: LatchedModal | null): ModalView | null {
  return m ? { title: m.title, buttons: m.buttons.map((b) => ({ index: b.index, label: b.label, current: b.current })), kind: m.kind } : null;
}

function sameModal(a: LatchedModal | null, b: LatchedModal | null): boolean {
  if (!a || !b) return a === b;
  if (a.title !== b.title || a.buttons.length !== b.buttons.length) return false;
  // The cursor moving to another option is a change of the modal: a viewer shows where Enter goes.
  return a.buttons.every((btn, i) => btn.label === b.buttons[i]!.label && btn.index === b.buttons[i]!.index && btn.current === b.buttons[i]!.current);
}

function sameControls(a: ControlView[], b: ControlView[]): boolean {
  return a.length === b.length && a.every((c, i) => c.id === b[i]!.id);
}
