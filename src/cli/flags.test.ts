import { describe, expect, it } from 'vitest';
import { CliUsageError } from './errors.js';
import { formatCommandHelp, formatUsageLine, parseCommandLine, type CommandSyntax, type FlagTable } from './flags.js';

const flags = {
    spec: { type: 'string', flag: 'spec', value: '<id|path>', help: 'spec' },
    json: { type: 'boolean', flag: 'json', help: 'JSON lines' },
    tailMs: { type: 'number', flag: 'tail-ms', value: 'N', min: 0, help: 'tail' },
    format: { type: 'string', flag: 'format', value: 'F', choices: ['mermaid', 'dot'], help: 'format' },
    output: { type: 'string', flag: 'output', short: 'o', value: 'FILE', help: 'out' },
} as const satisfies FlagTable;

const syntax: CommandSyntax<typeof flags> = {
  name: 'replay',
  summary: 'Replay a recording.',
  positionals: [{ name: '<file.cast>', required: true, help: 'recording' }],
  flags,
  passthrough: 'agent args',
};

function usageError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(CliUsageError);
    return (err as Error).message;
  }
  throw new Error('expected a CliUsageError');
}

function usageCode(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(CliUsageError);
    return (err as CliUsageError).code;
  }
  throw new Error('expected a CliUsageError');
}

describe('parseCommandLine', () => {
  it('gives each kind of mistake its own stable code', () => {
    expect(usageCode(() => parseCommandLine(syntax, ['a.cast', '--jsn']))).toBe('CLI_UNKNOWN_FLAG');
    expect(usageCode(() => parseCommandLine(syntax, []))).toBe('CLI_MISSING_ARGUMENT');
    expect(usageCode(() => parseCommandLine(syntax, ['a.cast', 'b.cast']))).toBe('CLI_UNEXPECTED_ARGUMENT');
    expect(usageCode(() => parseCommandLine(syntax, ['a.cast', '--spec']))).toBe('CLI_MISSING_VALUE');
    expect(usageCode(() => parseCommandLine(syntax, ['a.cast', '--tail-ms', 'soon']))).toBe('CLI_BAD_VALUE');
    expect(usageCode(() => parseCommandLine(syntax, ['a.cast', '--tail-ms', '-1']))).toBe('CLI_BAD_VALUE');
    expect(usageCode(() => parseCommandLine(syntax, ['a.cast', '--format', 'png']))).toBe('CLI_BAD_VALUE');
    expect(usageCode(() => parseCommandLine(syntax, ['a.cast', '--json=yes']))).toBe('CLI_BAD_VALUE');
  });

  it('reads typed values in both spellings and keeps pass-through arguments', () => {
    const r = parseCommandLine(syntax, ['a.cast', '--spec', 'demo', '--json', '--tail-ms=250', '-o', 'x.cast', '--', '--speed', '0.2']);
    expect(r.flags).toEqual({ spec: 'demo', json: true, tailMs: 250, format: undefined, output: 'x.cast' });
    expect(r.positionals).toEqual(['a.cast']);
    expect(r.passthrough).toEqual(['--speed', '0.2']);
  });

  it('names the unknown flag and lists the known ones', () => {
    expect(usageError(() => parseCommandLine(syntax, ['a.cast', '--jsn']))).toMatch(/unknown flag "--jsn" \(flags: --spec, --json/);
  });

  it('refuses a missing value, a non-number and a value outside the choices', () => {
    expect(usageError(() => parseCommandLine(syntax, ['a.cast', '--spec']))).toBe('--spec needs a value (<id|path>)');
    expect(usageError(() => parseCommandLine(syntax, ['a.cast', '--tail-ms', 'x']))).toContain('--tail-ms must be a number (N), got "x"');
    expect(usageError(() => parseCommandLine(syntax, ['a.cast', '--tail-ms', '-5']))).toContain('--tail-ms must be at least 0');
    expect(usageError(() => parseCommandLine(syntax, ['a.cast', '--format', 'png']))).toContain('--format must be one of mermaid, dot, got "png"');
    expect(usageError(() => parseCommandLine(syntax, ['a.cast', '--json=yes']))).toContain('--json takes no value');
  });

  it('requires positionals and rejects extra ones with a hint about "--"', () => {
    expect(usageError(() => parseCommandLine(syntax, []))).toBe('missing argument <file.cast> (recording)');
    expect(usageError(() => parseCommandLine(syntax, ['a.cast', 'b.cast']))).toContain('unexpected argument "b.cast"; put arguments for the agent after "--"');
  });

  it('accepts --help without the required arguments', () => {
    expect(parseCommandLine(syntax, ['--help']).help).toBe(true);
  });
});

describe('formatCommandHelp', () => {
  it('lists every flag of the table with its value placeholder and choices', () => {
    const help = formatCommandHelp(syntax);
    expect(help).toContain('Usage: specterm replay <file.cast> [flags] [-- args…]');
    expect(help).toMatch(/--tail-ms N\s+tail/);
    expect(help).toMatch(/-o, --output FILE\s+out/);
    expect(help).toContain('format (mermaid|dot)');
  });

  it('brackets each positional once: <required>, [optional], whether or not the table wrote them', () => {
    const usage = formatUsageLine({ name: 'approve', summary: '', flags: {}, positionals: [
      { name: '[session|approval-id]', required: false, help: '' }, { name: 'button', required: false, help: '' }, { name: 'session', required: true, help: '' },
    ] });
    expect(usage).toBe('specterm approve [session|approval-id] [button] <session>');
  });
});

describe('a flag whose value may be left out', () => {
  const serve = {
    name: 'serve', summary: 'Serve.', positionals: [],
    flags: {
      lan: { type: 'string', flag: 'lan', value: 'ADDR', bare: 'auto', help: 'serve on the LAN' },
      port: { type: 'number', flag: 'port', value: 'N', help: 'port' },
    },
  } as const satisfies CommandSyntax<FlagTable>;

  it('takes the bare value when it stands alone or before another flag', () => {
    expect(parseCommandLine(serve, ['--lan']).flags.lan).toBe('auto');
    expect(parseCommandLine(serve, ['--lan', '--port', '0']).flags).toEqual({ lan: 'auto', port: 0 });
  });

  it('takes a value given after it or with "="', () => {
    expect(parseCommandLine(serve, ['--lan', '192.168.1.20', '--port', '0']).flags.lan).toBe('192.168.1.20');
    expect(parseCommandLine(serve, ['--lan=10.0.0.8']).flags.lan).toBe('10.0.0.8');
    expect(parseCommandLine(serve, []).flags.lan).toBeUndefined();
  });

  it('shows the value as optional in the help', () => {
    expect(formatCommandHelp(serve)).toMatch(/--lan \[ADDR\]\s+serve on the LAN/);
  });
});
