/**
 * The dashboard benchmark's measuring hook, installed into the page before any of its scripts
 * run (`page.addInitScript(installPaintProbe)`; it is serialized, so it uses nothing from
 * outside). It catches each xterm terminal as terminal-view.tsx registers it
 * (`globalThis.specterm.terminals`, the page's test hook) and listens to `term.onRender`: xterm
 * fires it inside the animation frame in which its renderer (WebGL or DOM) has just drawn the
 * changed rows, so the time read there is when the text went onto the page's next frame, not
 * when it was parsed. On each render it reads the viewport's text and records:
 *  - `renderLog`: the first 100 renders, each `{ atMs, text }`: performance.now() (ms since the
 *    navigation started) and the viewport's text, so a caller finds the first frame that showed
 *    the snapshot's text (kept rather than matched here: the page cannot know the text before
 *    it loads);
 *  - `stamps`: each `STAMP <n> <wall ms>` line (bench/dashboard/lag-agent.mjs) the first time it
 *    is drawn, with `lagMs` = the page's wall clock (performance.timeOrigin + now) − the stamp, and
 *    `arrivalMs` = the same at the arrival of the WebSocket frame carrying it (the daemon's part).
 *  - `wsOpenMs`, `terminalMs`, `subscribeMs`, `snapshotMs`: when the page's WebSocket opened, the
 *    terminal was created, its subscription was sent and its first snapshot arrived (the socket is
 *    wrapped to see them), to tell where an open's time went.
 * The page reads `globalThis.__paintProbe`.
 */
export function installPaintProbe() {
  // arrivals: each stamp's wall-clock time when its WebSocket frame reached the page (before
  // xterm parsed it), so the lag splits into the daemon's part and the browser's.
  const probe = { renderLog: [], renders: 0, stamps: [], arrivals: new Map() };
  const seen = new Set();
  const STAMP = /STAMP (\d+) (\d+\.\d+)/g;
  globalThis.__paintProbe = probe;
  const attach = (sessionId, entry) => {
    const term = entry.term;
    term.onRender(() => {
      const at = performance.now();
      const wall = performance.timeOrigin + at;
      probe.renders += 1;
      const buffer = term.buffer.active;
      let text = '';
      for (let y = 0; y < term.rows; y++) text += `${buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? ''}\n`;
      if (probe.renderLog.length < 100) probe.renderLog.push({ atMs: at, text });
      for (const m of text.matchAll(STAMP)) {
        const key = `${sessionId}:${m[1]}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const arrived = probe.arrivals.get(m[1]);
        probe.stamps.push({ sessionId, n: Number(m[1]), lagMs: wall - Number(m[2]), arrivalMs: arrived === undefined ? null : arrived - Number(m[2]) });
      }
    });
  };
  // Where an open's time goes: the socket opening and the first snapshot arriving on it.
  probe.wsOpenMs = null;
  probe.snapshotMs = null;
  probe.subscribeMs = null;
  probe.terminalMs = null;
  const NativeWebSocket = globalThis.WebSocket;
  const decoder = new TextDecoder();
  globalThis.WebSocket = class extends NativeWebSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener('open', () => { probe.wsOpenMs ??= performance.now(); });
      const send = this.send.bind(this);
      this.send = (data) => {
        if (probe.subscribeMs === null && typeof data === 'string' && data.includes('"subscribe"') && data.includes('terminal/')) probe.subscribeMs = performance.now();
        return send(data);
      };
      this.addEventListener('message', (event) => {
        if (event.data instanceof ArrayBuffer) {
          const wall = performance.timeOrigin + performance.now();
          for (const m of decoder.decode(event.data).matchAll(STAMP)) if (!probe.arrivals.has(m[1])) probe.arrivals.set(m[1], wall);
        }
        if (probe.snapshotMs === null && typeof event.data === 'string' && event.data.includes('"type":"snapshot"')) probe.snapshotMs = performance.now();
      });
    }
  };
  // terminal-view.tsx does `Object.assign(globalThis.specterm ??= {}, { terminals })`: the
  // setter sees the map, and each `set` (a terminal opened) gets the listener before any byte.
  let terminals;
  const box = {};
  Object.defineProperty(box, 'terminals', {
    configurable: true, enumerable: true,
    get: () => terminals,
    set: (map) => {
      terminals = map;
      const set = map.set.bind(map);
      map.set = (key, value) => { probe.terminalMs ??= performance.now(); attach(key, value); return set(key, value); };
    },
  });
  globalThis.specterm = box;
}
