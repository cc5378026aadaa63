/**
 * Renders a spec's state machine as a Mermaid flowchart or a Graphviz digraph: states as
 * nodes (status-coloured, modal states as hexagons, the initial state fed by a start dot)
 * and transitions as edges labelled with label, guard summary, hold and priority.
 * `"*"` edges start at one "any state" node so the picture stays readable.
 */
import { classifyCondition } from './condition-kind.js';
import { initialState, statusForState, transitionLabel } from './model.js';
import type { CliSpecV4, FsmTransition, StateStatus } from './types.js';

/** Output syntax of {@link renderGraph}. */
export type GraphFormat = 'mermaid' | 'dot';

/** Longest regex excerpt inside a guard summary. */
const MAX_PATTERN_CHARS = 24;
/** Longest guard summary on an edge. */
const MAX_GUARD_CHARS = 90;
/** Guards deeper than this are summarised as "…" (the validator caps depth anyway). */
const MAX_SUMMARY_DEPTH = 6;

const STATUS_COLORS: Record<StateStatus, { fill: string; stroke: string }> = {
  idle: { fill: '#e8f5e9', stroke: '#2e7d32' },
  generating: { fill: '#fff8e1', stroke: '#f9a825' },
  approval: { fill: '#ffebee', stroke: '#c62828' },
  waiting_external: { fill: '#ede7f6', stroke: '#5e35b1' },
};

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function num(value: unknown): string {
  return typeof value === 'number' ? String(value) : '?';
}

/**
 * A one-line summary of a guard, e.g. `body~/Working/ ∧ ¬footer~/esc/ ∧ stable 6000ms`.
 * Tolerates malformed input (renders "?").
 */
export function summarizeCondition(cond: unknown, depth = 0): string {
  if (depth > MAX_SUMMARY_DEPTH) return '…';
  const c = cond as Record<string, unknown>;
  const part = (child: unknown) => {
    const s = summarizeCondition(child, depth + 1);
    const kind = classifyCondition(child);
    return kind === 'all' || kind === 'any' ? `(${s})` : s;
  };
  switch (classifyCondition(cond)) {
    case 'all':
      return Array.isArray(c.all) ? (c.all.length ? c.all.map(part).join(' ∧ ') : 'true') : '?';
    case 'any':
      return Array.isArray(c.any) ? (c.any.length ? c.any.map(part).join(' ∨ ') : 'false') : '?';
    case 'not':
      return `¬${part(c.not)}`;
    case 'signal':
      return `signal:${String(c.signal)}${c.equals === false ? '=false' : ''}`;
    case 'elapsed':
      return `elapsed ${num(c.elapsed_ms)}ms`;
    case 'stable': {
      const where = typeof c.section === 'string' ? `(${c.section})` : typeof c.cursor_above === 'number' ? `(above ${c.cursor_above})` : '';
      return `stable${where} ${num(c.stable_ms)}ms`;
    }
    case 'regex':
      return `${typeof c.section === 'string' ? c.section : '*'}~/${clip(String(c.matches), MAX_PATTERN_CHARS)}/`;
    case 'window_title':
      return `title~/${clip(String(c.window_title), MAX_PATTERN_CHARS)}/`;
    case 'osc':
      return `osc${num(c.osc)}~/${clip(String(c.payload), MAX_PATTERN_CHARS)}/${typeof c.held_ms === 'number' ? ` ${num(c.held_ms)}ms` : ''}`;
    case 'changed':
      return `${c.changed === false ? 'unchanged' : 'changed'}(above ${num(c.cursor_above)})`;
    default:
      return '?';
  }
}

/** The lines of an edge label: label, guard summary, hold/priority. */
function describeEdge(t: FsmTransition): string[] {
  const lines = [transitionLabel(t)];
  if (t.when !== undefined) lines.push(clip(summarizeCondition(t.when), MAX_GUARD_CHARS));
  const extras: string[] = [];
  if (typeof t.min_hold_ms === 'number' && t.min_hold_ms > 0) extras.push(`hold ≥${t.min_hold_ms}ms`);
  if (typeof t.priority === 'number' && t.priority !== 0) extras.push(`prio ${t.priority}`);
  if (extras.length) lines.push(extras.join(' · '));
  return lines;
}

/** Mermaid entity codes for everything that could end a quoted label or start markup. */
function escapeMermaid(text: string): string {
  const map: Record<string, string> = { '"': '#quot;', '#': '#35;', '<': '#lt;', '>': '#gt;', '|': '#124;', '`': '#96;', '\n': ' ', '\r': ' ' };
  return text.replace(/["#<>|`\n\r]/g, (ch) => map[ch]!);
}

/** Graphviz escString: backslashes and quotes escaped, newlines as `\n`. */
function escapeDot(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n|\r/g, '\\n');
}

/**
 * The diagram as data, before any syntax: what `specterm graph` renders and what the dashboard's
 * debugger draws as SVG (one model for both). Node keys are `s<index>`; `__any` is the `"*"`
 * source and `__missing<n>` a target the spec does not define.
 */
export interface GraphModel {
  nodes: Array<{ key: string; id: string; lines: string[]; modal: boolean; status: StateStatus; initial: boolean }>;
  edges: Array<{ from: string; to: string; lines: string[]; wildcard: boolean }>;
  hasWildcard: boolean;
  /** Undefined target state id → its node key. */
  missing: Map<string, string>;
}

/** The graph of a spec's states and transitions (tolerates a malformed spec: missing states become nodes). */
export function buildGraphModel(spec: CliSpecV4): GraphModel {
  const states = Array.isArray(spec?.states) ? spec.states : [];
  const transitions = Array.isArray(spec?.transitions) ? spec.transitions : [];
  const keyOf = new Map<string, string>();
  states.forEach((s, i) => {
    if (!keyOf.has(s.id)) keyOf.set(s.id, `s${i}`);
  });
  const initialId = states.length ? initialState(spec).id : undefined;
  const nodes = states
    .filter((s, i) => keyOf.get(s.id) === `s${i}`)
    .map((s) => {
      const status = statusForState(s);
      const second = [s.label && s.label !== s.id ? s.label : '', status].filter(Boolean).join(' · ');
      return { key: keyOf.get(s.id)!, id: s.id, lines: [s.id === initialId ? `▶ ${s.id}` : s.id, second], modal: s.modal === true, status, initial: s.id === initialId };
    });
  const missing = new Map<string, string>();
  const nodeFor = (id: string): string => {
    const known = keyOf.get(id);
    if (known) return known;
    if (!missing.has(id)) missing.set(id, `__missing${missing.size}`);
    return missing.get(id)!;
  };
  const edges: GraphModel['edges'] = [];
  let hasWildcard = false;
  for (const t of transitions) {
    const lines = describeEdge(t);
    const to = nodeFor(String(t.to));
    if (t.from === '*') {
      hasWildcard = true;
      edges.push({ from: '__any', to, lines, wildcard: true });
      continue;
    }
    const sources = Array.isArray(t.from) ? t.from : [t.from];
    for (const from of sources) edges.push({ from: nodeFor(String(from)), to, lines, wildcard: false });
  }
  return { nodes, edges, hasWildcard, missing };
}

function renderMermaid(spec: CliSpecV4, g: GraphModel): string {
  const out = ['flowchart TD', `  %% ${escapeMermaid(String(spec?.id ?? 'spec'))} (adhdev:cli/spec@4)`];
  const label = (lines: string[]) => `"${lines.map(escapeMermaid).join('<br/>')}"`;
  for (const n of g.nodes) out.push(n.modal ? `  ${n.key}{{${label(n.lines)}}}` : `  ${n.key}(${label(n.lines)})`);
  for (const [id, key] of g.missing) out.push(`  ${key}[${label([`? ${id}`, 'undefined state'])}]`);
  if (g.hasWildcard) out.push(`  __any([${label(['* any state'])}])`);
  const start = g.nodes.find((n) => n.initial);
  if (start) out.push(`  __start((" ")) --> ${start.key}`);
  for (const e of g.edges) out.push(`  ${e.from} ${e.wildcard ? '-.->' : '-->'}|${label(e.lines)}| ${e.to}`);
  for (const [status, color] of Object.entries(STATUS_COLORS)) {
    const members = g.nodes.filter((n) => n.status === status).map((n) => n.key);
    if (members.length === 0) continue;
    out.push(`  classDef ${status} fill:${color.fill},stroke:${color.stroke}`);
    out.push(`  class ${members.join(',')} ${status}`);
  }
  if (g.missing.size) out.push('  classDef missing stroke-dasharray:4 4', `  class ${[...g.missing.values()].join(',')} missing`);
  return `${out.join('\n')}\n`;
}

function renderDot(spec: CliSpecV4, g: GraphModel): string {
  const q = (lines: string[]) => `"${lines.map(escapeDot).join('\\n')}"`;
  const out = [
    `digraph ${q([String(spec?.id ?? 'spec')])} {`,
    '  rankdir=LR;',
    '  node [shape=box, style="rounded,filled", fontname="Helvetica"];',
    '  edge [fontname="Helvetica", fontsize=10];',
  ];
  for (const n of g.nodes) {
    const color = STATUS_COLORS[n.status] ?? STATUS_COLORS.idle;
    const shape = n.modal ? ', shape=hexagon, style="filled"' : '';
    const border = n.initial ? ', penwidth=2' : '';
    out.push(`  ${n.key} [label=${q(n.lines)}, fillcolor="${color.fill}", color="${color.stroke}"${shape}${border}];`);
  }
  for (const [id, key] of g.missing) out.push(`  ${key} [label=${q([`? ${id}`, 'undefined state'])}, style="dashed"];`);
  if (g.hasWildcard) out.push(`  __any [label=${q(['* any state'])}, shape=ellipse, style="dashed"];`);
  const start = g.nodes.find((n) => n.initial);
  if (start) out.push('  __start [shape=point, label=""];', `  __start -> ${start.key};`);
  for (const e of g.edges) out.push(`  ${e.from} -> ${e.to} [label=${q(e.lines)}${e.wildcard ? ', style="dashed"' : ''}];`);
  out.push('}');
  return `${out.join('\n')}\n`;
}

/**
 * Renders the state machine of a validated spec.
 *
 * @param format `'mermaid'` (a `flowchart TD`, paste into Markdown) or `'dot'` (Graphviz).
 * @example renderGraph(spec, 'mermaid') // "flowchart TD\n  s0(\"▶ starting<br/>idle\")\n…"
 */
export function renderGraph(spec: CliSpecV4, format: GraphFormat): string {
  const model = buildGraphModel(spec);
  return format === 'dot' ? renderDot(spec, model) : renderMermaid(spec, model);
}
