/**
 * Micro-benchmark of one complete evaluation of the pure core on a Claude-Code-like spec:
 * evaluateFsm (resolves sections once, evaluates every outgoing guard of `busy`) plus
 * deriveModal for the approval state on the same frame.
 *
 * Usage: npm run build && node bench/eval.mjs
 * (SPECTERM_DIST_DIR=<dir> points at another build output, e.g. a temporary one.)
 * Prints microseconds per evaluation (median and p99, after warm-up).
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const distDir = process.env.SPECTERM_DIST_DIR
  ? path.resolve(process.env.SPECTERM_DIST_DIR)
  : path.resolve(path.dirname(new URL(import.meta.url).pathname), '../dist');
const { evaluateFsm, deriveModal } = await import(pathToFileURL(path.join(distDir, 'core/eval/index.js')).href);

const WARMUP_ITERATIONS = 2_000;
const MEASURED_ITERATIONS = 20_000;

// Unified spinner: braille or asterisk glyph, then an ellipsis or an elapsed/esc trailer.
const SPINNER = '(?:^|\\n)\\s*[\\u2800-\\u28ff✻✽✶✳✢·*]\\s+[^\\n]*?(?:…|\\.\\.\\.|\\((?:\\d+[smh]|esc to interrupt)[^\\n]*\\))';
const COMPLETION = '(?:^|\\n)\\s*✻ (?![^\\n]*token)[^\\n]* for \\d+[smh]';
const APPROVAL = '(?:^|\\n)\\s*[❯›>]\\s*1\\.\\s*.+';
const PICKER = 'Select (?:a |an )?(?:model|mode|option)\\b|Switch between';
const BENIGN_TICKER = '^\\s*[↑↓]\\s*[\\d.]+k? tokens\\s*$';
const BUTTONS = { section: 'modal', pattern: '^\\s*(?:[❯›>]\\s*)?(\\d+)\\.\\s*(.+?)\\s*$', flags: 'gm', key_for_index: '{index}\r', min_count: 2 };

const spec = {
  $schema: 'adhdev:cli/spec@4',
  id: 'claude-bench',
  binary: 'claude',
  send_message: { submit_key: '\r' },
  sections: {
    footer: { anchor: '^[❯›>]', anchor_last: true },
    modal: {
      anchor: ['^[─╌]+$', '\\S'],
      anchor_last: true,
      anchor_context: [{ next: '^(?![─╌]+$)' }, { next: '^\\s*[❯›>➜]?\\s*1\\.\\s' }],
      until: '^\\s*[❯›>➜](?!\\s*\\d+\\.)',
    },
    body: { from_top: 0, until: 'modal' },
    status_tail: { anchor: '^\\s*[\\u2800-\\u28ff✻✽✶✳✢·*]\\s', anchor_last: true, anchor_miss: 'empty', lines: 2 },
  },
  states: [
    { id: 'starting', label: 'Starting', initial: true, status: 'idle' },
    { id: 'idle', label: 'Idle' },
    { id: 'busy', label: 'Generating' },
    { id: 'approval', label: 'Approval', modal: true, extract: { title: { section: 'modal', first_line: true }, buttons: BUTTONS } },
    { id: 'picker', label: 'Picker', modal: true, modal_kind: 'picker', extract: { buttons: BUTTONS } },
  ],
  transitions: [
    { from: 'starting', to: 'idle', when: { elapsed_ms: 4000 } },
    { from: ['starting', 'idle', 'busy'], to: 'approval', priority: 100, when: { section: 'footer', matches: APPROVAL } },
    { from: ['starting', 'idle', 'busy'], to: 'picker', priority: 100, when: { matches: PICKER } },
    { from: 'idle', to: 'busy', min_hold_ms: 1000, when: { section: 'body', matches: SPINNER } },
    { from: 'idle', to: 'busy', when: { window_title: '^[\\u2800-\\u28ff]' } },
    {
      from: 'busy',
      to: 'idle',
      min_hold_ms: 800,
      when: {
        all: [
          { not: { matches: SPINNER } },
          { any: [{ matches: COMPLETION }, { section: 'footer', matches: '^[❯›>]\\s*$', flags: 'm' }] },
          { stable_ms: 6000, cursor_above: 4 },
          { stable_ms: 8000, ignore_lines: BENIGN_TICKER },
        ],
      },
    },
    { from: 'busy', to: 'idle', when: { all: [{ not: { section: 'status_tail', matches: 'esc to interrupt' } }, { stable_ms: 2000, section: 'status_tail' }, { elapsed_ms: 30000 }] } },
    { from: 'approval', to: 'busy', min_hold_ms: 1500, when: { all: [{ not: { section: 'footer', matches: APPROVAL } }, { matches: SPINNER }] } },
    { from: 'approval', to: 'idle', min_hold_ms: 300, when: { all: [{ not: { section: 'footer', matches: APPROVAL } }, { stable_ms: 3000, cursor_above: 5 }] } },
    { from: 'picker', to: 'idle', when: { all: [{ not: { matches: PICKER } }, { stable_ms: 1000 }] } },
  ],
};

const WIDTH = 120;
// Rows are right-trimmed by the snapshot layer, so prose lines end at their last glyph.
const prose = (i) => `  Line ${i}: the assistant explains step ${i} of the refactor, touching src/module-${i % 7}.ts and its tests.`.slice(0, WIDTH);
const rule = '─'.repeat(WIDTH);

function approvalTail() {
  return [
    '⏺ Bash(npm run build && npm test -- --reporter=dot)',
    rule,
    ' Bash command',
    '',
    '   npm run build && npm test -- --reporter=dot',
    '   Run the build and the unit tests',
    '',
    ' Do you want to proceed?',
    ' ❯ 1. Yes',
    "   2. Yes, and don't ask again for npm run build commands in /work/project",
    '   3. No, and tell Claude what to do differently (esc)',
    rule,
    '  ↓ 12.4k tokens',
  ];
}

function screenOf(totalLines) {
  const tail = approvalTail();
  const body = [];
  for (let i = 0; body.length < totalLines - tail.length - 2; i += 1) {
    body.push(i % 9 === 0 ? '' : i % 13 === 0 ? `${(i % 3) + 1}. A numbered step in the plan` : prose(i));
  }
  return [...body, '✻ Worked for 12s', '', ...tail].slice(-totalLines).join('\n');
}

const clock = { now: 100_000, stateEnteredAt: 50_000, regionLastChangedAt: new Map([[-1, 99_000], [4, 90_000]]) };
const approvalState = spec.states[3];

function measure(screen, lines) {
  const cursor = { row: lines - 3, col: 4 };
  const prevLines = screen.split('\n');
  const extras = { windowTitle: '✳ Claude Code', viewportStartRow: lines > 40 ? lines - 40 : 0 };
  const once = () => {
    const ev = evaluateFsm(spec, 'busy', screen, cursor, prevLines, clock, extras);
    // The bench screens carry no \r, so the raw text is already the cleaned screen.
    return deriveModal(approvalState, ev.sections, screen);
  };
  const modal = once();
  if (!modal || modal.buttons.length !== 3) throw new Error(`bench screen did not parse as a 3-button modal: ${JSON.stringify(modal)}`);
  for (let i = 0; i < WARMUP_ITERATIONS; i += 1) once();
  const samples = new Float64Array(MEASURED_ITERATIONS);
  for (let i = 0; i < MEASURED_ITERATIONS; i += 1) {
    const t0 = performance.now();
    once();
    samples[i] = (performance.now() - t0) * 1000;
  }
  samples.sort();
  const at = (q) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
  return { median: at(0.5), p99: at(0.99) };
}

const small = measure(screenOf(40), 40);
const frame = measure(screenOf(200), 200);
console.log(`eval_120x40_median_us=${small.median.toFixed(1)}`);
console.log(`eval_120x40_p99_us=${small.p99.toFixed(1)}`);
console.log(`eval_frame200_median_us=${frame.median.toFixed(1)}`);
console.log(`eval_frame200_p99_us=${frame.p99.toFixed(1)}`);
