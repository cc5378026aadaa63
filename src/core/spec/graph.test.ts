import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderGraph, summarizeCondition } from './graph.js';
import type { CliSpecV4 } from './types.js';

const spec: CliSpecV4 = {
  $schema: 'adhdev:cli/spec@4',
  id: 'mini "quoted"',
  binary: 'mini',
  send_message: { submit_key: '\r' },
  states: [
    { id: 'starting', label: 'Starting', initial: true },
    { id: 'idle', label: 'Idle' },
    { id: 'busy', label: 'Busy', status: 'generating' },
    { id: 'approval', label: 'Allow "rm"?', modal: true },
  ],
  transitions: [
    { from: 'starting', to: 'idle', when: { elapsed_ms: 4000 } },
    { from: 'idle', to: 'busy', min_hold_ms: 1000, when: { section: 'body', matches: 'Working' } },
    {
      label: 'busy→idle',
      from: 'busy',
      to: 'idle',
      min_hold_ms: 800,
      when: { all: [{ section: 'body', matches: 'Working' }, { not: { section: 'footer', matches: 'esc to "interrupt"' } }, { stable_ms: 6000, cursor_above: 4 }] },
    },
    { from: '*', to: 'approval', priority: 100, when: { any: [{ matches: 'Allow|Deny' }, { window_title: '⠋' }] } },
  ],
};

describe('summarizeCondition', () => {
  it('renders a compact guard with ∧, ¬ and stable times', () => {
    expect(summarizeCondition(spec.transitions[2]!.when)).toBe('body~/Working/ ∧ ¬footer~/esc to "interrupt"/ ∧ stable(above 4) 6000ms');
  });

  it('renders every leaf kind and tolerates malformed input', () => {
    expect(summarizeCondition({ any: [{ elapsed_ms: 5 }, { all: [{ signal: 'x' }, { cursor_above: 2, changed: false }] }] })).toBe('elapsed 5ms ∨ (signal:x ∧ unchanged(above 2))');
    expect(summarizeCondition({ stable_ms: 100, section: 'tail' })).toBe('stable(tail) 100ms');
    expect(summarizeCondition({ matches: 'x'.repeat(50) })).toBe(`*~/${'x'.repeat(23)}…/`);
    expect(summarizeCondition({ bogus: 1 })).toBe('?');
    expect(summarizeCondition({ all: 'x' })).toBe('?');
    expect(summarizeCondition({ all: [] })).toBe('true');
  });
});

describe('renderGraph mermaid', () => {
  const out = renderGraph(spec, 'mermaid');

  it('draws states as nodes with label and status, the initial one fed by a start dot', () => {
    expect(out.startsWith('flowchart TD\n')).toBe(true);
    expect(out).toContain('s0("▶ starting<br/>Starting · idle")');
    expect(out).toContain('s2("busy<br/>Busy · generating")');
    expect(out).toContain('__start((" ")) --> s0');
  });

  it('draws modal states as hexagons and escapes quotes as entities', () => {
    expect(out).toContain('s3{{"approval<br/>Allow #quot;rm#quot;? · approval"}}');
    expect(out).toContain('%% mini #quot;quoted#quot; (adhdev:cli/spec@4)');
  });

  it('labels edges with label, guard summary, hold and priority', () => {
    expect(out).toContain('s0 -->|"starting→idle<br/>elapsed 4000ms"| s1');
    expect(out).toContain('s1 -->|"idle→busy<br/>body~/Working/<br/>hold ≥1000ms"| s2');
    expect(out).toContain('s2 -->|"busy→idle<br/>body~/Working/ ∧ ¬footer~/esc to #quot;interrupt#quot;/ ∧ stable(above 4) 6000ms<br/>hold ≥800ms"| s1');
  });

  it('draws "*" edges from one dashed "any state" node', () => {
    expect(out).toContain('__any(["* any state"])');
    expect(out).toContain('__any -.->|"*→approval<br/>*~/Allow#124;Deny/ ∨ title~/⠋/<br/>prio 100"| s3');
  });

  it('colours nodes by status', () => {
    expect(out).toContain('class s0,s1 idle');
    expect(out).toContain('class s2 generating');
    expect(out).toContain('class s3 approval');
  });
});

describe('renderGraph dot', () => {
  const out = renderGraph(spec, 'dot');

  it('renders a digraph with escaped labels', () => {
    expect(out.startsWith('digraph "mini \\"quoted\\"" {\n')).toBe(true);
    expect(out.trimEnd().endsWith('}')).toBe(true);
    expect(out).toContain('s3 [label="approval\\nAllow \\"rm\\"? · approval", fillcolor="#ffebee", color="#c62828", shape=hexagon, style="filled"];');
    expect(out).toContain('s0 [label="▶ starting\\nStarting · idle", fillcolor="#e8f5e9", color="#2e7d32", penwidth=2];');
    expect(out).toContain('__start -> s0;');
    expect(out).toContain('s2 -> s1 [label="busy→idle\\nbody~/Working/ ∧ ¬footer~/esc to \\"interrupt\\"/ ∧ stable(above 4) 6000ms\\nhold ≥800ms"];');
    expect(out).toContain('__any -> s3 [label="*→approval\\n*~/Allow|Deny/ ∨ title~/⠋/\\nprio 100", style="dashed"];');
  });

  it('escapes backslashes from regexes', () => {
    const withSlash: CliSpecV4 = { ...spec, transitions: [{ from: 'idle', to: 'busy', when: { matches: 'Working \\(' } }] };
    expect(renderGraph(withSlash, 'dot')).toContain('label="idle→busy\\n*~/Working \\\\(/"');
  });
});

describe('renderGraph robustness', () => {
  it('draws a dashed placeholder for a transition to an undefined state', () => {
    const broken = { ...spec, transitions: [{ from: 'idle', to: 'ghost' }] } as CliSpecV4;
    expect(renderGraph(broken, 'mermaid')).toContain('__missing0["? ghost<br/>undefined state"]');
    expect(renderGraph(broken, 'dot')).toContain('s1 -> __missing0');
  });

  it('renders the reference-style Claude spec in both formats', () => {
    const claude = JSON.parse(readFileSync(join(import.meta.dirname, '../../../test/fixtures/specs/valid/claude-like.json'), 'utf8')) as CliSpecV4;
    const mermaid = renderGraph(claude, 'mermaid');
    expect(mermaid.match(/-->|-\.->/g)?.length).toBeGreaterThanOrEqual(claude.transitions.length);
    expect(mermaid).toContain('s3{{"approval<br/>Approval requested · approval"}}');
    expect(renderGraph(claude, 'dot')).toContain('s1 -> s3 [label="→approval');
  });
});
