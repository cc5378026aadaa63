/**
 * ReDoS screening costs a person nothing they can feel (issue 27 item 1): the built-in specs
 * ship a verdict for every regex, so loading one analyses nothing; any other spec's regexes are
 * screened once and the verdicts kept in the user's cache; a regex that cannot be screened is
 * said at every load, and `validate --strict` refuses it. (Before: a load spent up to 4 s per
 * spec analysing, then left the rest "for the next load", which said exactly the same.)
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listBuiltinSpecs, loadSpec } from '../src/catalog/index.js';
import { specPatterns } from '../src/catalog/prescreen.js';
import { readVerdictFile, SHIPPED_VERDICTS_FILE, verdictKey } from '../src/catalog/verdict-store.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'bin/specterm.js');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'specterm-redos-cli-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const patternsOf = (file: string) => specPatterns(JSON.parse(fs.readFileSync(file, 'utf8')));

describe('the built-in specs', () => {
  it('ship a verdict for every regex they hold (npm run gen:redos writes them)', () => {
    const shipped = readVerdictFile(path.join(ROOT, 'specs', SHIPPED_VERDICTS_FILE));
    expect(shipped, 'specs/redos-verdicts.json is missing or of another recheck version').not.toBeNull();
    const missing = listBuiltinSpecs().flatMap((s) => patternsOf(s.path).filter((p) => !shipped!.has(verdictKey(p.source, p.flags))).map((p) => `${s.id}: ${p.flags}/${p.source}`));
    expect(missing).toEqual([]);
  });

  it('load without analysing a single regex, and none is left unscreened', () => {
    for (const spec of listBuiltinSpecs()) {
      const analysed: string[] = [];
      const result = loadSpec(spec.path, { onAnalyse: (source) => analysed.push(source) });
      expect(analysed, spec.id).toEqual([]);
      expect(result.issues.filter((i) => i.code === 'SPEC_REDOS_UNSCREENED'), spec.id).toEqual([]);
    }
  });

  it('include the demo agent with no ReDoS warning of its own', () => {
    const demo = listBuiltinSpecs().find((s) => s.id === 'demo-agent')!;
    expect(loadSpec(demo.path).issues.filter((i) => i.code.startsWith('SPEC_REDOS'))).toEqual([]);
  });
});

describe('specterm validate on a spec of your own', () => {
  const cacheHome = path.join(tmp, 'cache');
  const validate = (...args: string[]) => spawnSync(process.execPath, [BIN, 'validate', ...args], { cwd: tmp, encoding: 'utf8', timeout: 120_000, env: { ...process.env, XDG_CACHE_HOME: cacheHome } });
  const demo = JSON.parse(fs.readFileSync(path.join(ROOT, 'specs/demo-agent/spec.json'), 'utf8')) as { transitions: Array<Record<string, unknown>> };

  it('screens its new regexes once and keeps the verdicts for the next run', () => {
    const spec = structuredClone(demo);
    spec.transitions.push({ from: 'idle', to: 'busy', when: { matches: '^Thinking about [a-z]+ for you$', flags: 'm' } });
    const file = path.join(tmp, 'mine.json');
    fs.writeFileSync(file, JSON.stringify(spec));
    const first = validate(file);
    expect(first.status).toBe(0);
    expect(first.stderr).toContain('screening new regexes for ReDoS (once: verdicts are kept in');
    expect(fs.readFileSync(path.join(cacheHome, 'specterm/redos-verdicts.json'), 'utf8')).toContain('Thinking about');
    const second = validate(file);
    expect(second.status).toBe(0);
    expect(second.stderr).toBe('');
    expect(second.stdout).toContain('mine.json: ok');
  });

  it('says at every run that a regex it cannot screen is unscreened, and --strict refuses it', () => {
    const spec = structuredClone(demo);
    spec.transitions.push({ from: 'idle', to: 'busy', when: { matches: '^[\\p{L}--[a-z]]+ing$', flags: 'mv' } });
    const file = path.join(tmp, 'v-flag.json');
    fs.writeFileSync(file, JSON.stringify(spec));
    for (let run = 0; run < 2; run++) {
      const r = validate(file);
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/warning: transitions\[\d+\]\.when\.matches: regex was not screened for ReDoS: the screen cannot read the "v" flag/);
    }
    const strict = validate('--strict', file);
    expect(strict.status).toBe(1);
    expect(strict.stdout).toMatch(/error: transitions\[\d+\]\.when\.matches: regex was not screened for ReDoS/);
  });
});
