/**
 * The sign-in page: pairs with the code from the pairing URL's fragment (already taken out of
 * the address bar), or one typed in; a refused code shows the server's reason and what to do.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { ApiProblem, call } from './api-client.js';

export function SignIn(props: { code: string | null; onPaired: () => void }) {
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  const typed = useSignal('');

  const pair = async (code: string) => {
    busy.value = true;
    error.value = null;
    try {
      await call('pair', { body: { code } });
      props.onPaired();
    } catch (e) {
      error.value = e instanceof ApiProblem ? e.message : String(e);
    } finally {
      busy.value = false;
    }
  };

  useEffect(() => {
    if (props.code !== null) void pair(props.code);
  }, [props.code]);

  return (
    <main class="sign-in" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Pair this browser</h1>
      <p>
        Open the pairing URL that <code>specterm serve</code> prints (or scan its QR code). A code
        works once, for 10 minutes, and names this device; you can sign it out at any time.
      </p>
      {busy.value && <p role="status">Pairing…</p>}
      {error.value !== null && <p class="problem" role="alert">{error.value}</p>}
      <form onSubmit={(e) => { e.preventDefault(); if (typed.value.trim()) void pair(typed.value.trim()); }}>
        <label for="pair-code">Pairing code</label>
        <input id="pair-code" name="code" autocomplete="one-time-code" spellcheck={false} value={typed.value}
          onInput={(e) => { typed.value = (e.target as HTMLInputElement).value; }} />
        <button type="submit" disabled={busy.value}>Pair</button>
      </form>
    </main>
  );
}
