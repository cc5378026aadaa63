/** What a test reads back from the fleet's events stream. */
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';

export interface StreamedEvent { subject: string; seq: number; type: string; node?: string; session_id: string }

/** Every message of the events stream, oldest first (an ordered consumer: it leaves nothing durable behind). */
export async function streamedEvents(nc: NatsConnection): Promise<StreamedEvent[]> {
  const info = await (await jetstreamManager(nc)).streams.info('SPECTERM_EVENTS');
  const consumer = await jetstream(nc).consumers.get('SPECTERM_EVENTS');
  const out: StreamedEvent[] = [];
  for (let i = 0; i < info.state.messages; i++) {
    const m = await consumer.next({ expires: 5_000 });
    if (!m) break;
    out.push({ subject: m.subject, ...(m.json() as Omit<StreamedEvent, 'subject'>) });
  }
  return out;
}
