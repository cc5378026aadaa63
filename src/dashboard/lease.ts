/**
 * The controller lease of one session's terminal as this page sees it: `you` (this page sizes
 * the child), `other` (another viewer does; this page fits the picture to its own screen) or
 * `none`. The daemon tells every viewer whenever the holder changes; the lease ends with this
 * page's terminal subscription (the tab closed, the network dropped), so a reconnect shows
 * `none` until this page takes it again.
 * @module
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { LiveConnection } from './live.js';

export type LeaseHolder = 'you' | 'other' | 'none';

export function useLease(live: LiveConnection, sessionId: string): { holder: LeaseHolder; acquire(): void; release(): void } {
  const holder = useSignal<LeaseHolder>('none');
  useEffect(() => {
    holder.value = 'none';
    return live.listen((message) => {
      if (message.type === 'lease' && message.session_id === sessionId) holder.value = message.holder;
      else if (message.type === 'hello') holder.value = 'none'; // a new connection holds nothing yet
    });
  }, [live, sessionId]);
  return {
    holder: holder.value,
    acquire: () => live.send({ type: 'lease', session_id: sessionId, action: 'acquire' }),
    release: () => live.send({ type: 'lease', session_id: sessionId, action: 'release' }),
  };
}
