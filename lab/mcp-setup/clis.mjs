/**
 * The five MCP-capable CLIs of the MCP set-up lab, each as its own lab already runs it: the
 * pinned package, the scripted model server of its wire format, and the private HOME and
 * workspace with the lab's provider (the CLI lab's own config writer) — before the lab adds
 * `specterm` to it the way docs/mcp.md says (lab/lib/mcp-setup.mjs).
 *
 * A CLI's `startServer({ turns, onRequest })` starts its scripted server; `turns` are the lab's
 * prompts, each answered with a call of one specterm tool (under whatever name the CLI offers it:
 * read from the request's tools, lab/lib/mcp-setup.mjs `findTool`) and then a closing text.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { latestUserText, startChatServer } from '../lib/openai-chat-server.mjs';
import { findTool, nextChatStep, offeredTools } from '../lib/mcp-setup.mjs';
import { startCodexServer } from '../codex/server.mjs';
import { PINNED_VERSION as CODEX_VERSION, writeCodexConfig } from '../codex/lab.mjs';
import { startGeminiServer } from '../gemini/server.mjs';
import { PINNED_VERSION as GEMINI_VERSION, prepareHome as prepareGeminiHome } from '../gemini/lab.mjs';
import { QWEN_CODE } from '../qwen-code/lab.mjs';
import { OPENCODE } from '../opencode/lab.mjs';
import { KILOCODE } from '../kilocode/lab.mjs';

/** A home and a workspace under `tmp`. */
function makeDirs(tmp) {
  const home = path.join(tmp, 'home');
  const work = path.join(tmp, 'work');
  for (const dir of [home, work]) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return { home, work };
}

/**
 * A Gemini server scripted once the CLI's first turn shows the
 * names it gives specterm's tools: each turn's prompt is answered with that tool's call.
 */
async function startScriptedByNames(start, reply, { turns, onRequest }) {
  let scripted = false;
  const server = await start({
    scenario: { name: 'mcp-setup', replies: [] },
    onRequest: (body) => {
      onRequest(body);
      if (scripted) return;
      const names = offeredTools(body);
      if (!turns.every((t) => findTool(names, t.tool))) return;
      scripted = true;
      server.setScenario({ name: 'mcp-setup', replies: turns.map((t) => ({ match: t.match, ...reply(findTool(names, t.tool), t.arguments), afterTool: { chunks: [t.done] } })) });
    },
  });
  return server;
}

/** A Chat Completions server that scripts each request of a turn with {@link nextChatStep}. */
async function startChatStepper(desc, { turns, onRequest }) {
  const server = await startChatServer({
    models: desc.models, isSideCall: desc.isSideCall, scenario: { name: 'mcp-setup', replies: [] },
    onRequest: (body) => {
      onRequest(body);
      const text = latestUserText(Array.isArray(body?.messages) ? body.messages : []);
      const turn = turns.find((t) => new RegExp(t.match, 'i').test(text));
      const step = turn && nextChatStep(body, turn);
      // The step answers both a new prompt and a returning tool result (`afterTool`).
      if (step) server.setScenario({ name: 'mcp-setup', replies: [{ match: turn.match, ...step, afterTool: step }] });
    },
  });
  return server;
}

/** The chat-lab CLIs: their description's `prepare` writes the provider config and answers the environment. */
function chatCli(desc, extra) {
  return {
    id: desc.id, name: desc.cliName, pkg: desc.pkg, version: desc.pinnedVersion, bin: desc.bin,
    startServer: (opts) => startChatStepper(desc, opts),
    prepare({ tmp, serverUrl }) {
      const { home, work } = makeDirs(tmp);
      const env = desc.prepare({ home, work, tmp, serverUrl, session: undefined });
      return { home, work, env };
    },
    ...extra,
  };
}

export const CLIS = [
  {
    id: 'codex', name: 'Codex CLI', pkg: '@openai/codex', version: CODEX_VERSION, bin: 'codex',
    // Steps run in order, one per model request; the Codex server names the call by the namespace that offers the tool.
    startServer: ({ turns, onRequest }) => startCodexServer({
      onRequest,
      scenario: { name: 'mcp-setup', steps: turns.flatMap((t) => [{ kind: 'mcp_call', tool: t.tool, arguments: t.arguments }, { kind: 'text', text: t.done }]) },
    }),
    prepare({ tmp, serverUrl }) {
      const { home, work } = makeDirs(tmp);
      fs.mkdirSync(path.join(home, '.codex'), { recursive: true, mode: 0o700 });
      writeCodexConfig(path.join(home, '.codex'), serverUrl, {}, null);
      return { home, work, env: { LAB_CODEX_KEY: 'lab-dummy-key-not-secret' } };
    },
  },
  {
    id: 'gemini', name: 'Gemini CLI', pkg: '@google/gemini-cli', version: GEMINI_VERSION, bin: 'gemini',
    startServer: (opts) => startScriptedByNames(startGeminiServer, (name, args) => ({ chunks: [], functionCall: { name, args } }), opts),
    prepare({ tmp, serverUrl }) {
      const { home, work } = prepareGeminiHome(tmp, {});
      return { home, work, env: { GEMINI_API_KEY: 'lab-dummy-key', GOOGLE_GEMINI_BASE_URL: serverUrl } };
    },
  },
  chatCli(QWEN_CODE),
  chatCli(OPENCODE),
  chatCli(KILOCODE),
];
