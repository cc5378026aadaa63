// Writes src/dashboard/public/fonts/specterm-symbols.ttf: the few symbols agent CLIs draw
// (⏺ ⎿ ⏵ ✻ ❯ ✔ …) taken from DejaVu Sans Mono, so a terminal shows them where the system
// lacks the glyph (issue 27 item 13). DejaVu has no ⏺, ⎿ or ⏵: they get the glyph of the
// shape they are drawn as (● └ ▶). Hinting is dropped (a handful of glyphs at terminal sizes).
// The Bitstream Vera licence allows a modified font under another name: "specterm symbols",
// with the copyright and licence kept (name table, and LICENSE beside the font).
// Run: node scripts/gen-symbol-font.mjs [source.ttf]; the output is committed.
import fs from 'node:fs';
import path from 'node:path';

const SOURCE = process.argv[2] ?? '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf';
const OUT_DIR = path.resolve(import.meta.dirname, '..', 'src', 'dashboard', 'public', 'fonts');
const FAMILY = 'specterm symbols';
/** Shipped code point → the DejaVu Sans Mono code point whose glyph it gets. */
const GLYPHS = new Map([
  [0x23fa, 0x25cf], [0x23bf, 0x2514], [0x23f5, 0x25b6], // ⏺ ⎿ ⏵: drawn as ● └ ▶
  ...[0x25cf, 0x25cb, 0x25ef, 0x25b6, 0x25b8, 0x25c6, 0x25c7, 0x2722, 0x2733, 0x2736, 0x273b, 0x273d,
    0x276f, 0x2713, 0x2714, 0x2717, 0x2718, 0x26a0, 0x21b5, 0x2605].map((cp) => [cp, cp]),
]);
const LICENCE = fs.readFileSync(path.join(OUT_DIR, 'LICENSE'), 'utf8');

const src = fs.readFileSync(SOURCE);
const tables = new Map();
for (let i = 0, n = src.readUInt16BE(4); i < n; i++) {
  const at = 12 + 16 * i;
  tables.set(src.toString('latin1', at, at + 4), src.subarray(src.readUInt32BE(at + 8), src.readUInt32BE(at + 8) + src.readUInt32BE(at + 12)));
}
const table = (tag) => tables.get(tag) ?? fail(`${SOURCE} has no ${tag} table`);
function fail(message) { throw new Error(message); }

const longLoca = table('head').readInt16BE(50) === 1;
const loca = table('loca');
const glyphAt = (gid) => {
  const [from, to] = longLoca ? [loca.readUInt32BE(4 * gid), loca.readUInt32BE(4 * gid + 4)] : [2 * loca.readUInt16BE(2 * gid), 2 * loca.readUInt16BE(2 * gid + 2)];
  return table('glyf').subarray(from, to);
};
const numHMetrics = table('hhea').readUInt16BE(34);
const metricsOf = (gid) => {
  const hmtx = table('hmtx');
  const advance = hmtx.readUInt16BE(4 * Math.min(gid, numHMetrics - 1));
  const lsb = gid < numHMetrics ? hmtx.readInt16BE(4 * gid + 2) : hmtx.readInt16BE(4 * numHMetrics + 2 * (gid - numHMetrics));
  return { advance, lsb };
};

/** The glyph id of `cp` by the source's (3,1) format 4 cmap. */
function glyphIdOf(cp) {
  const cmap = table('cmap');
  let sub = null;
  for (let i = 0; i < cmap.readUInt16BE(2); i++) {
    const at = 4 + 8 * i;
    if (cmap.readUInt16BE(at) === 3 && cmap.readUInt16BE(at + 2) === 1) sub = cmap.subarray(cmap.readUInt32BE(at + 4));
  }
  if (!sub || sub.readUInt16BE(0) !== 4) fail(`${SOURCE} has no Unicode BMP cmap`);
  const segs = sub.readUInt16BE(6) / 2;
  for (let s = 0; s < segs; s++) {
    const end = sub.readUInt16BE(14 + 2 * s);
    const start = sub.readUInt16BE(16 + 2 * segs + 2 * s);
    if (cp > end || cp < start) continue;
    const delta = sub.readUInt16BE(16 + 4 * segs + 2 * s);
    const rangeAt = 16 + 6 * segs + 2 * s;
    const range = sub.readUInt16BE(rangeAt);
    const gid = range === 0 ? cp : sub.readUInt16BE(rangeAt + range + 2 * (cp - start));
    return gid === 0 ? 0 : (gid + delta) & 0xffff;
  }
  return 0;
}

// Glyph order: .notdef, then each glyph needed (with the components of composite ones).
const order = [0];
const newId = new Map([[0, 0]]);
const need = (gid) => {
  if (newId.has(gid)) return;
  newId.set(gid, order.length);
  order.push(gid);
  const g = glyphAt(gid);
  if (g.length && g.readInt16BE(0) < 0) for (const c of componentsOf(g)) need(c.gid);
};
function componentsOf(g) {
  const out = [];
  let at = 10;
  for (let more = true; more;) {
    const flags = g.readUInt16BE(at);
    out.push({ at, flags, gid: g.readUInt16BE(at + 2) });
    at += 4 + (flags & 1 ? 4 : 2) + (flags & 8 ? 2 : flags & 0x40 ? 4 : flags & 0x80 ? 8 : 0);
    more = (flags & 0x20) !== 0;
  }
  return Object.assign(out, { end: at });
}
for (const [cp, from] of GLYPHS) {
  const gid = glyphIdOf(from);
  if (gid === 0) fail(`${SOURCE} has no glyph for U+${from.toString(16)} (wanted for U+${cp.toString(16)})`);
  need(gid);
}

/** The glyph without its hinting instructions, components renumbered. */
function stripGlyph(g) {
  if (g.length === 0) return g;
  const contours = g.readInt16BE(0);
  if (contours >= 0) {
    const insAt = 10 + 2 * contours;
    const insLen = g.readUInt16BE(insAt);
    const zero = Buffer.alloc(2);
    return Buffer.concat([g.subarray(0, insAt), zero, g.subarray(insAt + 2 + insLen)]);
  }
  const comps = componentsOf(g);
  const out = Buffer.from(g.subarray(0, comps.end));
  for (const c of comps) {
    out.writeUInt16BE(c.flags & ~0x100, c.at);
    out.writeUInt16BE(newId.get(c.gid), c.at + 2);
  }
  return out;
}

const pad4 = (b) => (b.length % 4 ? Buffer.concat([b, Buffer.alloc(4 - (b.length % 4))]) : b);
const glyphs = order.map((gid) => pad4(stripGlyph(glyphAt(gid))));
const glyf = Buffer.concat(glyphs);
const newLoca = Buffer.alloc(4 * (order.length + 1));
glyphs.reduce((offset, g, i) => { newLoca.writeUInt32BE(offset, 4 * i); newLoca.writeUInt32BE(offset + g.length, 4 * i + 4); return offset + g.length; }, 0);
const hmtx = Buffer.alloc(4 * order.length);
order.forEach((gid, i) => { const m = metricsOf(gid); hmtx.writeUInt16BE(m.advance, 4 * i); hmtx.writeInt16BE(m.lsb, 4 * i + 2); });

const head = Buffer.from(table('head').subarray(0, 54));
head.writeUInt32BE(0, 8);
head.writeInt16BE(1, 50);
const hhea = Buffer.from(table('hhea').subarray(0, 36));
hhea.writeUInt16BE(order.length, 34);
const maxp = Buffer.from(table('maxp').subarray(0, 32));
maxp.writeUInt16BE(order.length, 4);
for (let at = 14; at <= 26; at += 2) maxp.writeUInt16BE(at === 14 ? 1 : 0, at); // no hinting: zones 1, the rest 0
const codePoints = [...GLYPHS.keys()].sort((a, b) => a - b);
const os2 = Buffer.from(table('OS/2'));
os2.writeUInt16BE(codePoints[0], 64);
os2.writeUInt16BE(codePoints.at(-1), 66);
const post = Buffer.alloc(32);
table('post').copy(post, 0, 0, 16);
post.writeUInt32BE(0x00030000, 0);

function cmapTable() {
  const segs = [...codePoints.map((cp) => ({ start: cp, end: cp, delta: (newId.get(glyphIdOf(GLYPHS.get(cp))) - cp) & 0xffff })), { start: 0xffff, end: 0xffff, delta: 1 }];
  const n = segs.length;
  const sub = Buffer.alloc(16 + 8 * n);
  const search = 2 ** Math.floor(Math.log2(n));
  [4, sub.length, 0, 2 * n, 2 * search, Math.log2(search), 2 * n - 2 * search].forEach((v, i) => sub.writeUInt16BE(v, 2 * i));
  segs.forEach((s, i) => {
    sub.writeUInt16BE(s.end, 14 + 2 * i);
    sub.writeUInt16BE(s.start, 16 + 2 * n + 2 * i);
    sub.writeUInt16BE(s.delta, 16 + 4 * n + 2 * i);
  });
  const header = Buffer.alloc(12);
  [0, 1, 3, 1].forEach((v, i) => header.writeUInt16BE(v, 2 * i));
  header.writeUInt32BE(12, 8);
  return Buffer.concat([header, sub]);
}

function nameTable() {
  const copyright = 'Copyright (c) 2003 by Bitstream, Inc. All Rights Reserved. DejaVu changes are in public domain. Subset for specterm.';
  const names = [[0, copyright], [1, FAMILY], [2, 'Regular'], [3, `${FAMILY} subset of DejaVu Sans Mono`], [4, FAMILY], [5, 'Version 1.0'], [6, 'spectermsymbols'], [13, LICENCE]];
  const strings = names.map(([, text]) => Buffer.from(text, 'utf16le').swap16());
  const out = Buffer.alloc(6 + 12 * names.length);
  out.writeUInt16BE(names.length, 2);
  out.writeUInt16BE(out.length, 4);
  let offset = 0;
  names.forEach(([id], i) => {
    [3, 1, 0x409, id, strings[i].length, offset].forEach((v, j) => out.writeUInt16BE(v, 6 + 12 * i + 2 * j));
    offset += strings[i].length;
  });
  return Buffer.concat([out, ...strings]);
}

const out = new Map([['OS/2', os2], ['cmap', cmapTable()], ['glyf', glyf], ['head', head], ['hhea', hhea], ['hmtx', hmtx], ['loca', newLoca], ['maxp', maxp], ['name', nameTable()], ['post', post]]);
const checksum = (b) => { const p = pad4(b); let sum = 0; for (let i = 0; i < p.length; i += 4) sum = (sum + p.readUInt32BE(i)) >>> 0; return sum; };
const tags = [...out.keys()].sort();
const dir = Buffer.alloc(12 + 16 * tags.length);
const search = 2 ** Math.floor(Math.log2(tags.length));
dir.writeUInt32BE(0x00010000, 0);
[tags.length, 16 * search, Math.log2(search), 16 * tags.length - 16 * search].forEach((v, i) => dir.writeUInt16BE(v, 4 + 2 * i));
let offset = dir.length;
tags.forEach((tag, i) => {
  const data = out.get(tag);
  dir.write(tag, 12 + 16 * i, 'latin1');
  dir.writeUInt32BE(checksum(data), 12 + 16 * i + 4);
  dir.writeUInt32BE(offset, 12 + 16 * i + 8);
  dir.writeUInt32BE(data.length, 12 + 16 * i + 12);
  offset += pad4(data).length;
});
const font = Buffer.concat([dir, ...tags.map((t) => pad4(out.get(t)))]);
const headAt = dir.readUInt32BE(12 + 16 * tags.indexOf('head') + 8);
font.writeUInt32BE((0xb1b0afba - checksum(font)) >>> 0, headAt + 8);
fs.writeFileSync(path.join(OUT_DIR, 'specterm-symbols.ttf'), font);
console.log(`specterm-symbols.ttf: ${font.length} bytes, ${order.length} glyphs, unicode-range: ${codePoints.map((cp) => `U+${cp.toString(16).toUpperCase()}`).join(', ')}`);
