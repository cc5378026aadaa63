import { describe, expect, it } from 'vitest';
import { fitToWidth, renderStatusText, StatusBarScreen, type StatusBarContent } from './status-bar.js';

const approval: StatusBarContent = {
  specId: 'demo-agent',
  state: { id: 'approval', label: 'Approval requested', title: 'Bash command', status: 'approval' },
  modal: { title: 'Bash command', kind: 'approval', buttons: [{ index: 1, label: 'Yes', current: true }, { index: 2, label: "Yes, and don't ask again for npm commands", current: false }, { index: 3, label: 'No', current: false }] },
};

describe('renderStatusText', () => {
  it('shows the state, the status, the modal title, the key of each button and where the cursor is', () => {
    const text = renderStatusText(approval, 120);
    expect(text).toContain('◆ Approval requested · approval │ Bash command: ❯1 Yes · 2 Yes, and don\'t ask again fo… · 3 No');
    expect(text.endsWith(' demo-agent ')).toBe(true);
    expect(Array.from(text)).toHaveLength(120);
  });

  it('says the agent\'s own work still running beside an idle state', () => {
    const background = { count: 1, what: '1 background shell', items: [{ id: 'shell', count: 1 }] };
    const idle: StatusBarContent = { specId: 'claude-code', state: { id: 'idle', label: 'Ready', title: null, status: 'idle', background }, modal: null };
    expect(renderStatusText(idle, 80)).toMatch(/^ ○ Ready · idle · 1 background shell +claude-code $/);
  });

  it('is exactly as wide as the terminal, cutting with an ellipsis', () => {
    for (const cols of [8, 20, 40, 80]) expect(Array.from(renderStatusText(approval, cols))).toHaveLength(cols);
    expect(renderStatusText(approval, 40)).toContain('…');
  });

  it('counts wide characters as two columns', () => {
    expect(fitToWidth('日本', 4)).toBe('日本');
    expect(fitToWidth('日本語', 4)).toBe('日… ');
  });
});

describe('StatusBarScreen', () => {
  function screen(rows = 24) {
    let out = '';
    const bar = new StatusBarScreen((d) => { out += d; }, 80, rows, approval);
    return { bar, out: () => out, clear: () => { out = ''; } };
  }

  it('reserves the last row with a scroll region and draws in inverse video with the cursor saved', () => {
    const s = screen();
    s.bar.install();
    expect(s.bar.childRows).toBe(23);
    expect(s.out()).toContain('\x1b7\x1b[1;23r\x1b8');
    expect(s.out()).toMatch(/\x1b7\x1b\[24;1H\x1b\[0m\x1b\[7m.*\x1b\[0m\x1b8/);
  });

  it('re-applies the scroll region when the child resets it, also across chunk boundaries', () => {
    const s = screen();
    s.bar.install();
    s.clear();
    s.bar.childOutput('hello\x1b[1;10r');
    expect(s.out()).toBe(''); // a region inside the child's rows is the child's business
    s.bar.childOutput('x\x1b[');
    s.bar.childOutput('r');
    expect(s.out()).toContain('\x1b[1;23r');
    s.clear();
    s.bar.childOutput('\x1b[?1049h');
    expect(s.out()).toContain('\x1b[1;23r');
    expect(s.bar.altScreen).toBe(true);
  });

  it('gives the whole screen back on uninstall, leaving the alternate screen and resetting modes', () => {
    const s = screen();
    s.bar.install();
    s.bar.childOutput('\x1b[?1049h');
    s.clear();
    s.bar.uninstall();
    expect(s.out()).toContain('\x1b[?1049l');
    expect(s.out()).toContain('\x1b[r');
    expect(s.out()).toContain('\x1b[24;1H\x1b[0m\x1b[2K');
    expect(s.out()).toContain('\x1b[?25h');
    s.clear();
    s.bar.uninstall();
    s.bar.draw();
    expect(s.out()).toBe('');
  });
});
