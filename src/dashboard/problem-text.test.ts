import { describe, expect, it } from 'vitest';
import { toPersonText } from './problem-text.js';

describe('toPersonText', () => {
  it('drops the route and the field pointer of a validation refusal', () => {
    expect(toPersonText('POST /api/v1/sessions: /cwd: cwd must be an absolute path (got "a/b")')).toBe('cwd must be an absolute path (got "a/b")');
  });

  it('drops the pointer of every field', () => {
    expect(toPersonText('POST /api/v1/sessions: /cwd: must be absolute; /labels/team: too long')).toBe('must be absolute; too long');
  });

  it('drops asides that point a program at a route or the schema', () => {
    expect(toPersonText('session s_1 is not running (it exited); restart it (POST …/restart) to preview on its screen'))
      .toBe('session s_1 is not running (it exited); restart it to preview on its screen');
    expect(toPersonText("/: unknown field 'x'; remove it (the schema is in /api/v1/openapi.json)")).toBe("unknown field 'x'; remove it");
  });

  it('leaves a message for a person as it is', () => {
    const text = 'the modal changed (Select model is up now); answer the one shown';
    expect(toPersonText(text)).toBe(text);
  });
});
