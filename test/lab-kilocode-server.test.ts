/**
 * The scripted chat server as the Kilo Code lab drives it (lab/kilocode): Kilo sends the typed text
 * and then, as the last text part of the same user message, an `<environment_details>` block (time,
 * working directory…). The server must pick its reply by the typed text, not by that block. Real
 * HTTP on loopback, no CLI.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { latestUserText, loadChatScenarios, startChatServer, type ChatServer } from '../lab/lib/openai-chat-server.mjs';

let server: ChatServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const environment = '\n\n<environment_details>\nMessage time: 2026-12-01T21:01:34Z\nWorking directory: /tmp/work\n</environment_details>';
const kiloUser = (text: string) => ({ role: 'user', content: [{ type: 'text', text }, { type: 'text', text: environment }] });

describe('lab chat server with Kilo Code requests', () => {
  it('reads the typed text, not the trailing <environment_details> block', () => {
    expect(latestUserText([kiloUser('give me a long answer')])).toBe('give me a long answer');
  });

  it('streams the scripted reply of the typed text (the long answer, not the catch-all hello)', async () => {
    const scenario = loadChatScenarios(path.join(import.meta.dirname, '..', 'lab', 'opencode', 'scenarios')).basic!;
    server = await startChatServer({ scenario });
    const res = await fetch(`${server.url}/chat/completions`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'lab-model', stream: true, messages: [{ role: 'system', content: 'You are Kilo' }, kiloUser('give me a long answer')] }),
    });
    const body = await res.text();
    expect(body).toContain('Alpha line of the long answer');
    expect(body).not.toContain('scripted ');
    expect(server.log.find((e) => e.event === 'prompt')).toMatchObject({ text: 'give me a long answer' });
  });
});
