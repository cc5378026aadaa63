/**
 * spec_drift on real recordings: the Codex and demo-agent specs recognise every prompt their
 * recordings show, so no replay of them raises spec_drift — neither the long numbered answer
 * (codex/long-answer) nor the recognised modals (approvals, the /model picker, sign-in).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAsciicast } from '../src/recording/asciicast.js';
import { replaySession } from '../src/harness/replay-session.js';
import type { CliSpecV4 } from '../src/core/spec/types.js';
import type { DashboardEvent } from '../src/driver/events.js';

const SPECS = path.join(import.meta.dirname, '..', 'specs');

describe.each(['codex', 'demo-agent'])('%s recordings raise no spec_drift', (id) => {
  const spec = JSON.parse(fs.readFileSync(path.join(SPECS, id, 'spec.json'), 'utf8')) as CliSpecV4;
  const dir = path.join(SPECS, id, 'recordings');
  const casts = fs.readdirSync(dir).filter((f) => f.endsWith('.cast'));

  it.each(casts)('%s', (file) => {
    const drifts: DashboardEvent[] = [];
    const r = replaySession({
      cast: parseAsciicast(fs.readFileSync(path.join(dir, file), 'utf8')),
      spec,
      onEvent: (ev) => { if (ev.kind === 'spec_drift') drifts.push(ev); },
    });
    r.driver.shutdown();
    expect(drifts).toEqual([]);
  });
});
