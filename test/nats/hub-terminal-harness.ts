/**
 * A WebSocket client of the hub, as the dashboard is: it renders what it is sent into a headless
 * xterm (./topics-harness.ts's RenderingSink, which records any tear), keeps the ids frames
 * came under, and sends messages with a `ref` and waits for their answer.
 */
import { WebSocket } from 'ws';
import { decodeTerminalFrame, WS_PATH, WS_SUBPROTOCOL, type ServerMessage } from '../../src/protocol/index.js';
import { waitFor } from '../daemon/daemon-harness.js';
import { RenderingSink } from './topics-harness.js';

export interface HubClient {
  socket: WebSocket;
  sink: RenderingSink;
  /** The session ids the terminal frames came under. */
  frameIds: Set<string>;
  /** Sends `message` with a fresh `ref`; resolves with the answer that names it. */
  reply(message: Record<string, unknown>): Promise<ServerMessage>;
  close(): void;
}

export async function connectToHub(hubUrl: string, token: string, waitMs: number): Promise<HubClient> {
  const socket = new WebSocket(`${hubUrl.replace('http', 'ws')}${WS_PATH}`, [WS_SUBPROTOCOL], { headers: { authorization: `Bearer ${token}` } });
  const sink = new RenderingSink();
  const frameIds = new Set<string>();
  socket.on('message', (data, isBinary) => {
    if (!isBinary) return sink.send(JSON.parse(String(data)) as ServerMessage);
    const frame = decodeTerminalFrame(new Uint8Array(data as Buffer));
    if (!frame) throw new Error('a binary message that is no terminal frame');
    frameIds.add(frame.sessionId);
    sink.sendTerminal(frame);
  });
  await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
  let refs = 0;
  return {
    socket, sink, frameIds,
    reply: async (message) => {
      const ref = `r${refs += 1}`;
      socket.send(JSON.stringify({ ...message, ref }));
      return await waitFor(() => sink.messages.find((m) => 'ref' in m && m.ref === ref), waitMs, `the answer to ${JSON.stringify(message)}`);
    },
    close: () => {
      socket.close();
      sink.dispose();
    },
  };
}
