/**
 * The spec's state graph as SVG (the model `specterm graph` renders, sent by `GET …/graph`),
 * with the current state and the last edge taken highlighted. Layout is layered by distance
 * from the initial state (breadth first), which keeps the usual start → idle → busy → done
 * loop readable without a layout library.
 */
import type { SpecGraph } from '../protocol/debug.js';

/** The narrowest node; a node grows to its longest label line. */
const MIN_NODE_W = 150;
const NODE_H = 44;
const GAP_X = 24;
const GAP_Y = 56;
/**
 * Labels are drawn in the monospace font at 12 px (styles.css `.graph text`), whose advance is
 * 0.6 em in DejaVu Sans Mono and the usual ui-monospace faces: 7.2 px a character, plus room.
 */
const LABEL_CHAR_PX = 7.4;
const LABEL_PAD_PX = 16;

interface Placed { key: string; x: number; y: number }

/** The width every node gets: room for the longest label line of any node. */
export function nodeWidthFor(lines: readonly string[]): number {
  const longest = Math.max(0, ...lines.map((l) => [...l].length));
  return Math.max(MIN_NODE_W, Math.ceil(longest * LABEL_CHAR_PX + 2 * LABEL_PAD_PX));
}

/** Node key → centre, layer by layer from the initial state; `__any` above, the unreachable below. */
export function layoutGraph(graph: SpecGraph, nodeW: number): { placed: Map<string, Placed>; width: number; height: number } {
  const keys = [...graph.nodes.map((n) => n.key), ...graph.missing.map((m) => m.key)];
  const depth = new Map<string, number>();
  const start = graph.nodes.find((n) => n.initial)?.key ?? keys[0];
  const queue = start ? [start] : [];
  if (start) depth.set(start, 0);
  while (queue.length) {
    const key = queue.shift()!;
    for (const e of graph.edges) {
      if (e.from !== key || depth.has(e.to)) continue;
      depth.set(e.to, depth.get(key)! + 1);
      queue.push(e.to);
    }
  }
  const unreached = Math.max(-1, ...depth.values()) + 1;
  const hasAny = graph.edges.some((e) => e.wildcard);
  const layers: string[][] = [];
  for (const key of keys) {
    const layer = (depth.get(key) ?? unreached) + (hasAny ? 1 : 0);
    (layers[layer] ??= []).push(key);
  }
  if (hasAny) layers[0] = ['__any'];
  const widest = Math.max(1, ...layers.map((l) => l?.length ?? 0));
  const width = widest * (nodeW + GAP_X) + GAP_X;
  const placed = new Map<string, Placed>();
  layers.forEach((layer, row) => {
    if (!layer) return;
    const span = layer.length * (nodeW + GAP_X) - GAP_X;
    layer.forEach((key, i) => {
      placed.set(key, { key, x: (width - span) / 2 + i * (nodeW + GAP_X) + nodeW / 2, y: GAP_Y / 2 + row * (NODE_H + GAP_Y) + NODE_H / 2 });
    });
  });
  return { placed, width, height: layers.length * (NODE_H + GAP_Y) };
}

/** Where the segment from a's centre towards b leaves a's box. */
function boxEdge(a: Placed, b: Placed, nodeW: number): { x: number; y: number } {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  if (dx === 0 && dy === 0) return a;
  const scale = Math.min(Math.abs((nodeW / 2) / (dx || 1e-9)), Math.abs((NODE_H / 2) / (dy || 1e-9)));
  return { x: a.x + dx * scale, y: a.y + dy * scale };
}

export function GraphView(props: { graph: SpecGraph; current: string | null; lastEdge: { from: string; to: string } | null }) {
  const { graph } = props;
  const keyOf = new Map(graph.nodes.map((n) => [n.id, n.key]));
  const lastFrom = props.lastEdge ? keyOf.get(props.lastEdge.from) : undefined;
  const lastTo = props.lastEdge ? keyOf.get(props.lastEdge.to) : undefined;
  const currentKey = props.current === null ? undefined : keyOf.get(props.current);
  const boxes = [
    ...graph.nodes.map((n) => ({ key: n.key, id: n.id, lines: n.lines, cls: `node node-${n.status}${n.modal ? ' node-modal' : ''}` })),
    ...graph.missing.map((m) => ({ key: m.key, id: m.id, lines: [`? ${m.id}`, 'undefined state'], cls: 'node node-missing' })),
    ...(graph.edges.some((e) => e.wildcard) ? [{ key: '__any', id: '*', lines: ['* any state'], cls: 'node node-any' }] : []),
  ].map((b) => ({ ...b, lines: b.lines.filter(Boolean).slice(0, 2) }));
  const nodeW = nodeWidthFor(boxes.flatMap((b) => b.lines));
  const { placed, width, height } = layoutGraph(graph, nodeW);
  return (
    <svg class="graph" role="img" aria-label={`State graph of ${graph.spec_id}; current state ${props.current ?? 'unknown'}`} viewBox={`0 0 ${width} ${height}`} width={width} height={height}>
      <defs>
        <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" /></marker>
      </defs>
      {graph.edges.map((e, i) => {
        const a = placed.get(e.from);
        const b = placed.get(e.to);
        if (!a || !b || a === b) return null;
        const p = boxEdge(a, b, nodeW);
        const q = boxEdge(b, a, nodeW);
        const last = e.from === lastFrom && e.to === lastTo;
        return (
          <line key={i} class={`edge${e.wildcard ? ' edge-any' : ''}${last ? ' edge-last' : ''}`} data-edge={`${e.from}->${e.to}`} data-last={last ? 'true' : undefined}
            x1={p.x} y1={p.y} x2={q.x} y2={q.y} marker-end="url(#arrow)"><title>{e.lines.join(' — ')}</title></line>
        );
      })}
      {boxes.map((b) => {
        const at = placed.get(b.key);
        if (!at) return null;
        const current = b.key === currentKey;
        return (
          <g key={b.key} class={`${b.cls}${current ? ' node-current' : ''}`} data-state={b.id} data-current={current ? 'true' : undefined}>
            <rect x={at.x - nodeW / 2} y={at.y - NODE_H / 2} width={nodeW} height={NODE_H} rx={8} />
            {b.lines.map((line, i) => (
              <text key={i} x={at.x} y={at.y + (i === 0 ? -4 : 13)} text-anchor="middle">{line}</text>
            ))}
          </g>
        );
      })}
    </svg>
  );
}
