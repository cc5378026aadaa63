import { describe, expect, it } from 'vitest';
import { matchesLabelFilter, parseLabelFilter, parseLabels, splitArgs } from './session-filter.js';

describe('the label filter', () => {
  const session = { labels: { team: 'core', ci: '' } };
  it('keeps a session with every key, and every key=value equal', () => {
    expect(matchesLabelFilter(session, parseLabelFilter(''))).toBe(true);
    expect(matchesLabelFilter(session, parseLabelFilter('team=core ci'))).toBe(true);
    expect(matchesLabelFilter(session, parseLabelFilter('team=core, ci='))).toBe(true);
  });
  it('drops a session missing a key or with another value', () => {
    expect(matchesLabelFilter(session, parseLabelFilter('team=web'))).toBe(false);
    expect(matchesLabelFilter(session, parseLabelFilter('team owner'))).toBe(false);
    expect(matchesLabelFilter({ labels: {} }, parseLabelFilter('toString'))).toBe(false);
  });
});

describe('the create form fields', () => {
  it('reads labels as key=value pairs and names a pair without =', () => {
    expect(parseLabels('team=core, owner = me\nci=')).toEqual({ labels: { team: 'core', owner: 'me', ci: '' } });
    expect(parseLabels('team')).toEqual({ error: 'label "team" is not key=value; write it as team=core' });
  });
  it('splits arguments as a shell would, without expansion', () => {
    expect(splitArgs(`--model "big one" -x 'a "b"' c\\ d ""`)).toEqual({ args: ['--model', 'big one', '-x', 'a "b"', 'c d', ''] });
    expect(splitArgs('  ')).toEqual({ args: [] });
    expect(splitArgs('"open')).toEqual({ error: 'the arguments have an unclosed "; close it or escape it with \\' });
  });
});
