import { afterAll, describe, expect, it } from 'vitest';
import { validateSpec } from '../core/spec/index.js';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createBlockingScreen, createCachedScreen, resetScreenGuard, screenRegexesInBackground, screenRegexWithRecheck } from './redos.js';
import { SCREENER, VerdictStore } from './verdict-store.js';

describe('screenRegexWithRecheck', () => {
  it('classifies a nested quantifier as exponential and gives an attack string', () => {
    expect(screenRegexWithRecheck('^(a+)+$', '')).toMatchObject({ complexity: 'exponential', attack: expect.stringMatching(/'a'/) });
  });

  it('classifies overlapping adjacent quantifiers as polynomial', () => {
    expect(screenRegexWithRecheck('^a*a*$', '')?.complexity).toBe('polynomial');
  });

  it('classifies a plain pattern as safe', () => {
    expect(screenRegexWithRecheck('^Working \\(\\d+s', 'i')).toEqual({ complexity: 'safe' });
  });

  it('says why a pattern recheck cannot read is unscreened, instead of throwing', () => {
    expect(screenRegexWithRecheck('[\\p{L}--a]', 'v')).toEqual({ complexity: 'unscreened', reason: 'the screen cannot read the "v" flag' });
    expect(screenRegexWithRecheck('(', '')).toMatchObject({ complexity: 'unscreened', reason: expect.stringMatching(/^the screen cannot read it/) });
    expect(screenRegexWithRecheck(5 as unknown as string, '')).toBeNull();
  });

  it('ignores the "d" flag, which does not change matching time', () => {
    expect(screenRegexWithRecheck('^(b+)+$', 'd')?.complexity).toBe('exponential');
  });

  it('analyses a pattern once per source and flags', () => {
    const analysed: string[] = [];
    const screen = createBlockingScreen({ onAnalyse: (source, flags) => analysed.push(`${flags}/${source}`) });
    const first = screen('(x|x)*y', 'i');
    expect(screen('(x|x)*y', 'i')).toEqual(first);
    screen('(x|x)*y', '');
    expect(analysed).toEqual(['i/(x|x)*y', '/(x|x)*y']);
  });

  it('makes validateSpec reject an exponential guard regex with path, pattern and attack', () => {
    const spec = {
      $schema: 'adhdev:cli/spec@4',
      id: 'x',
      binary: 'x',
      send_message: { submit_key: '\r' },
      states: [{ id: 'a', label: 'A', initial: true }, { id: 'b', label: 'B' }],
      transitions: [{ from: 'a', to: 'b', when: { matches: '(\\w+\\s?)*$', flags: 'm' } }],
    };
    const { errors } = validateSpec(spec, { screenRegex: screenRegexWithRecheck });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^transitions\[0\]\.when\.matches: regex can take exponential time on some screens \(ReDoS\); attack string: .+ \("\(\\\\w\+\\\\s\?\)\*\$"\); /);
  });

});

describe('verdicts kept', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-redos-'));
  const shippedFile = path.join(dir, 'shipped.json');
  const cacheFile = path.join(dir, 'cache', 'redos-verdicts.json');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('analyses a pattern once: the verdict goes to a private cache file another process reads', () => {
    const analysed: string[] = [];
    const store = new VerdictStore({ shippedFile, cacheFile });
    const screen = createBlockingScreen({ store, onAnalyse: (source) => analysed.push(source) });
    expect(screen('^(e+)+$', '')?.complexity).toBe('exponential');
    expect(screen('^kept$', 'm')).toEqual({ complexity: 'safe' });
    expect(screen('^kept$', 'm')).toEqual({ complexity: 'safe' });
    expect(analysed).toEqual(['^(e+)+$', '^kept$']);
    expect(fs.statSync(cacheFile).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(cacheFile)).mode & 0o777).toBe(0o700);

    const later = new VerdictStore({ shippedFile, cacheFile });
    const again: string[] = [];
    createBlockingScreen({ store: later, onAnalyse: (source) => again.push(source) })('^kept$', 'm');
    expect(again).toEqual([]);
    expect(createCachedScreen(later)('^(e+)+$', '')?.complexity).toBe('exponential');
  });

  it('never stores an undecided pattern: it is unscreened every time', () => {
    const store = new VerdictStore({ shippedFile, cacheFile });
    for (let i = 0; i < 2; i++) expect(createBlockingScreen({ store })('[\\p{L}--b]', 'v')?.complexity).toBe('unscreened');
    expect(JSON.parse(fs.readFileSync(cacheFile, 'utf8')).verdicts).not.toHaveProperty(['v/[\\p{L}--b]']);
  });

  it('prefers shipped verdicts, and trusts no file of another screener or a malformed one', () => {
    fs.writeFileSync(shippedFile, JSON.stringify({ screener: SCREENER, verdicts: { '/^shipped$': { complexity: 'polynomial', attack: 'x' } } }));
    const analysed: string[] = [];
    const screen = createBlockingScreen({ store: new VerdictStore({ shippedFile, cacheFile }), onAnalyse: (s) => analysed.push(s) });
    expect(screen('^shipped$', '')).toEqual({ complexity: 'polynomial', attack: 'x' });
    expect(analysed).toEqual([]);

    fs.writeFileSync(shippedFile, JSON.stringify({ screener: 'recheck@0.0.1', verdicts: { '/^shipped$': { complexity: 'polynomial' } } }));
    fs.writeFileSync(cacheFile, '{ not json');
    const fresh = new VerdictStore({ shippedFile, cacheFile });
    expect(createCachedScreen(fresh)('^shipped$', '')).toMatchObject({ complexity: 'unscreened', reason: expect.stringMatching(/not screened yet/) });
    expect(createBlockingScreen({ store: fresh })('^shipped$', '')).toEqual({ complexity: 'safe' });
    expect(JSON.parse(fs.readFileSync(cacheFile, 'utf8'))).toMatchObject({ screener: SCREENER, verdicts: { '/^shipped$': { complexity: 'safe' } } });
  });

  it('screens in the background without blocking, so the cached screen knows the patterns afterwards', async () => {
    const store = new VerdictStore({ shippedFile, cacheFile: null });
    const cached = createCachedScreen(store);
    expect(cached('^(g+)+$', '')?.complexity).toBe('unscreened');
    // The event loop turns while the screening runs: a timer queued now fires before it ends.
    const order: string[] = [];
    setImmediate(() => order.push('event loop'));
    const analysed = await screenRegexesInBackground([{ source: '^(g+)+$', flags: '' }, { source: '^bg$', flags: '' }, { source: 'x', flags: 'v' }], store);
    order.push('screened');
    expect(order).toEqual(['event loop', 'screened']);
    expect(analysed).toBe(2);
    expect(cached('^(g+)+$', '')?.complexity).toBe('exponential');
    expect(cached('^bg$', '')).toEqual({ complexity: 'safe' });
  });

  it('stops waiting on a screen that overruns, says so, and asks it nothing more for a while', async () => {
    const store = new VerdictStore({ shippedFile, cacheFile: null });
    const asked: string[] = [];
    // recheck's own timeout is not a wall-clock bound (seen: 14 min): an analysis that never ends.
    const never = (source: string) => { asked.push(source); return new Promise<never>(() => {}); };
    try {
      const analysed = await screenRegexesInBackground([{ source: '^stuck-1$', flags: '' }, { source: '^stuck-2$', flags: '' }], store, { analyse: never, hardLimitMs: 50 });
      expect(analysed).toBe(0);
      expect(asked).toEqual(['^stuck-1$']);
      expect(createCachedScreen(store)('^stuck-2$', '')?.complexity).toBe('unscreened');
      expect(createBlockingScreen({ store })('^fresh-after-stuck$', '')).toEqual({ complexity: 'unscreened', reason: expect.stringMatching(/overran .* left alone for a minute/) });
    } finally {
      resetScreenGuard();
    }
    expect(createBlockingScreen({ store })('^fresh-after-stuck$', '')).toEqual({ complexity: 'safe' });
  });
});
