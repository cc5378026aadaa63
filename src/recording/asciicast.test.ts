import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseAsciicast, parseResizeData, serializeAsciicastEvent, serializeAsciicastHeader, type CastEvent } from './asciicast.js';
import { RecordingError } from './errors.js';

const fixture = (name: string): string => readFileSync(fileURLToPath(new URL(`../../test/fixtures/recordings/${name}`, import.meta.url)), 'utf8');
const HEADER = '{"version": 2, "width": 80, "height": 24}';

function parseError(text: string, options?: Parameters<typeof parseAsciicast>[1]): RecordingError {
  try {
    parseAsciicast(text, options);
  } catch (error) {
    expect(error).toBeInstanceOf(RecordingError);
    return error as RecordingError;
  }
  throw new Error('expected parseAsciicast to throw');
}

describe('parseAsciicast', () => {
  it('reads the header and every event of a recording', () => {
    const cast = parseAsciicast(fixture('small-session.cast'));
    expect(cast.header).toMatchObject({ version: 2, width: 40, height: 10, timestamp: 1767225600, env: { TERM: 'xterm-256color' } });
    expect(cast.events.map((e) => e.type).join('')).toBe('oooimooroo');
    expect(cast.events[3]).toEqual({ t: 1.2, type: 'i', data: 'hi\r' });
    expect(cast.events[7]).toEqual({ t: 1.5, type: 'r', data: '50x12' });
    expect(cast.truncatedTailLine).toBeUndefined();
  });

  it('keeps unknown header fields', () => {
    const cast = parseAsciicast('{"version":2,"width":10,"height":5,"idle_time_limit":2}\n');
    expect(cast.header.idle_time_limit).toBe(2);
    expect(cast.events).toEqual([]);
  });

  it('skips blank lines and accepts CRLF line ends', () => {
    const cast = parseAsciicast(`${HEADER}\r\n\r\n[0.5, "o", "a"]\r\n\n[0.5, "o", "b"]`);
    expect(cast.events.map((e) => e.data)).toEqual(['a', 'b']);
  });

  it('names the source in error messages', () => {
    expect(parseError('', 'session.cast').message).toBe(
      'session.cast: line 1: empty recording; expected a JSON header line like {"version": 2, "width": 80, "height": 24}',
    );
  });

  it.each([
    ['an empty file', '  \n\n', 1, /empty recording/],
    ['a header that is not JSON', '{"version": 2,\n', 1, /header is not valid JSON .*asciicast v1 files are a single JSON document/],
    ['a header that is an array', '[2, 80, 24]\n', 1, /header must be a JSON object/],
    ['version 1', '{"version": 1, "width": 80, "height": 24}\n', 1, /unsupported asciicast version 1; specterm reads version 2/],
    ['version 3', '{"version": 3, "term": {"cols": 80, "rows": 24}}\n', 1, /unsupported asciicast version 3/],
    ['a missing width', '{"version": 2, "height": 24}\n', 1, /header field width must be an integer between 1 and 1000, got undefined/],
    ['a header wider than the limit', '{"version": 2, "width": 1001, "height": 24}\n', 1, /header field width must be an integer between 1 and 1000 \(the widest terminal specterm supports\), got 1001/],
    ['a header taller than the limit', '{"version": 2, "width": 80, "height": 501}\n', 1, /header field height must be an integer between 1 and 500 \(the tallest terminal specterm supports\), got 501/],
    ['a zero height', '{"version": 2, "width": 80, "height": 0}\n', 1, /header field height must be an integer/],
    ['a string timestamp', '{"version": 2, "width": 80, "height": 24, "timestamp": "now"}\n', 1, /timestamp must be a number/],
    ['a non-string env value', '{"version": 2, "width": 80, "height": 24, "env": {"TERM": 1}}\n', 1, /env must be an object of strings/],
    ['an event that is an object', `${HEADER}\n{"t": 1}\n[1, "o", "x"]\n`, 2, /line 2: expected \[time, code, data\], got \{"t": 1\}/],
    ['an event with two fields', `${HEADER}\n[1, "o"]\n`, 2, /line 2: expected \[time, code, data\], got \[1, "o"\]/],
    ['a negative time', `${HEADER}\n[-1, "o", "x"]\n`, 2, /time a number of seconds >= 0, got time -1/],
    ['a string time', `${HEADER}\n["1", "o", "x"]\n`, 2, /got time "1"/],
    ['an unknown code', `${HEADER}\n[1, "x", "0"]\n`, 2, /unknown event code "x"; expected one of "o" \(output\), "i" \(input\), "r" \(resize\), "m" \(marker\)/],
    ['non-string data', `${HEADER}\n[1, "o", 5]\n`, 2, /data a string, got 5/],
    ['bad resize data', `${HEADER}\n[1, "r", "80 by 24"]\n`, 2, /resize data must be "COLSxROWS" .*got "80 by 24"/],
    ['a zero-size resize', `${HEADER}\n[1, "r", "0x24"]\n`, 2, /resize data must be "COLSxROWS"/],
    ['a resize to 10000x10000', `${HEADER}\n[0.1, "r", "10000x10000"]\n[0.2, "o", "hi"]\n`, 2, /line 2: resize to "10000x10000" is larger than specterm supports: at most 1000 columns and 500 rows/],
    ['a resize one row too tall', `${HEADER}\n[0.1, "r", "1000x501"]\n`, 2, /line 2: resize to "1000x501" is larger than specterm supports/],
    ['decreasing times', `${HEADER}\n[2, "o", "a"]\n[1.5, "o", "b"]\n`, 3, /line 3: time 1.5 is earlier than the previous event's 2; event times must not decrease/],
    ['invalid JSON before the last line', `${HEADER}\n[1, "o", "a"\n[2, "o", "b"]\n`, 2, /line 2: invalid JSON .*must be a JSON array/],
  ])('rejects %s with the line number', (_name, text, line, message) => {
    const error = parseError(text);
    expect(error.code).toBe('RECORDING_INVALID');
    expect(error.line).toBe(line);
    expect(error.message).toMatch(message);
  });

  it('reports a truncated last line with a hint, or drops it when tolerated', () => {
    const text = fixture('truncated-tail.cast');
    const error = parseError(text);
    expect(error.line).toBe(4);
    expect(error.message).toMatch(/line 4: incomplete JSON at the end of the file .*parse with tolerateTruncatedTail/);
    const cast = parseAsciicast(text, { tolerateTruncatedTail: true });
    expect(cast.events.map((e) => e.data)).toEqual(['first\r\n', 'second\r\n']);
    expect(cast.truncatedTailLine).toBe(4);
  });

  it('throws only RecordingError for arbitrary input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(fc.jsonValue()).map((values) => [HEADER, ...values.map((v) => JSON.stringify(v))].join('\n'))), (text) => {
        try {
          parseAsciicast(text);
        } catch (error) {
          expect(error).toBeInstanceOf(RecordingError);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('parseResizeData', () => {
  it('parses COLSxROWS and rejects anything else', () => {
    expect(parseResizeData('120x40')).toEqual({ cols: 120, rows: 40 });
    expect(parseResizeData('120X40')).toBeUndefined();
    expect(parseResizeData('x40')).toBeUndefined();
    expect(parseResizeData('99999x1')).toBeUndefined();
    expect(parseResizeData('1000x500')).toEqual({ cols: 1000, rows: 500 });
    expect(parseResizeData('1001x500')).toBeUndefined();
  });
});

describe('asciicast serialisation', () => {
  it('writes the header with version first', () => {
    expect(serializeAsciicastHeader({ width: 120, height: 40, title: 't' })).toBe('{"version":2,"width":120,"height":40,"title":"t"}');
  });

  it('writes times with at most 6 decimals and escapes control characters', () => {
    expect(serializeAsciicastEvent({ t: 0.1 + 0.2, type: 'o', data: '\x1b[1mhi\r\n' })).toBe('[0.3,"o","\\u001b[1mhi\\r\\n"]');
    expect(serializeAsciicastEvent({ t: 1.23456789, type: 'o', data: '' })).toBe('[1.234568,"o",""]');
    expect(serializeAsciicastEvent({ t: 0.0000001, type: 'o', data: '' })).toBe('[0,"o",""]');
  });

  it('round-trips events through parse', () => {
    const event = fc.record({
      t: fc.double({ min: 0, max: 1e6, noNaN: true }),
      type: fc.constantFrom('o' as const, 'i' as const, 'm' as const),
      data: fc.string({ unit: 'binary' }),
    });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 20 }), (raw) => {
        const events: CastEvent[] = [...raw].sort((a, b) => a.t - b.t);
        const text = [serializeAsciicastHeader({ width: 80, height: 24 }), ...events.map(serializeAsciicastEvent)].join('\n') + '\n';
        const parsed = parseAsciicast(text);
        expect(parsed.events.map((e) => [e.type, e.data])).toEqual(events.map((e) => [e.type, e.data]));
        parsed.events.forEach((e, i) => expect(Math.abs(e.t - (events[i] as CastEvent).t)).toBeLessThanOrEqual(5e-7));
      }),
      { numRuns: 200 },
    );
  });
});
