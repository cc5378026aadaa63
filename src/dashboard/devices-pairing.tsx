/**
 * Pairing a new device from the Devices page: a name and a scope make a one-time pairing link
 * (10 minutes, single use; `createPairing`, admin), shown to copy and — when a phone can reach
 * the daemon — as a QR code drawn from the same `qrcode` encoding `specterm pair` prints
 * (byte mode, error correction M, a 2-module quiet zone). A loopback link gets no QR code but
 * the sentence that says why (`loopbackHostOf`, shared with the terminal's rule).
 */
import { useSignal } from '@preact/signals';
import QRCode from 'qrcode';
import { loopbackHostOf, noQrReason, type Pairing } from '../protocol/pairing.js';
import { SCOPES, type Scope } from '../protocol/scopes.js';
import { call } from './api-client.js';

/** Light modules around the code, as the terminal draws it (src/server/pairing-qr.ts). */
const QUIET_ZONE = 2;

/** `text` as one SVG path of its dark modules (`M x y h1v1h-1z` each), black on white. */
function QrCode(props: { text: string }) {
  const { modules } = QRCode.create(props.text, { errorCorrectionLevel: 'M' });
  const size = modules.size + 2 * QUIET_ZONE;
  let d = '';
  for (let y = 0; y < modules.size; y += 1) {
    for (let x = 0; x < modules.size; x += 1) {
      if (modules.data[y * modules.size + x] === 1) d += `M${x + QUIET_ZONE} ${y + QUIET_ZONE}h1v1h-1z`;
    }
  }
  return (
    <svg class="qr" viewBox={`0 0 ${size} ${size}`} role="img" aria-label="QR code of the pairing link" shape-rendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}

function PairingResult(props: { pairing: Pairing }) {
  const { pairing } = props;
  const copied = useSignal(false);
  const loopback = loopbackHostOf(pairing.url);
  const copy = () => {
    navigator.clipboard.writeText(pairing.url).then(() => { copied.value = true; }, () => { copied.value = false; });
  };
  return (
    <div class="pairing-result" role="status">
      <p>Open this link on <strong>{pairing.device_name}</strong> ({pairing.scope} scope) before {new Date(pairing.expires_at).toLocaleTimeString()}; it works once.</p>
      <div class="pairing-link">
        <label class="field">
          <span>Pairing link</span>
          <input type="text" readOnly value={pairing.url} onFocus={(e) => (e.target as HTMLInputElement).select()} />
        </label>
        <button type="button" onClick={copy}>{copied.value ? 'Copied' : 'Copy'}</button>
      </div>
      {loopback !== null ? <p class="note">{noQrReason(loopback)}. Open the link in a browser on this computer, or start the daemon on an address the phone reaches (see <code>specterm serve --help</code>).</p> : <QrCode text={pairing.url} />}
    </div>
  );
}

/** The form; `onPaired` refreshes the device list (the device appears once it used its link). */
export function PairDevice(props: { onPaired: () => void }) {
  const name = useSignal('phone');
  const scope = useSignal<Scope>('approve');
  const pairing = useSignal<Pairing | null>(null);
  const error = useSignal<string | null>(null);
  const busy = useSignal(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    busy.value = true;
    error.value = null;
    try {
      pairing.value = await call('createPairing', { body: { device_name: name.value.trim(), scope: scope.value } });
      props.onPaired();
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e);
    } finally {
      busy.value = false;
    }
  };
  return (
    <section class="pair-device" aria-labelledby="pair-title">
      <h3 id="pair-title">Pair a new device</h3>
      <form onSubmit={(e) => void submit(e)}>
        <label class="field">
          <span>Device name</span>
          <input type="text" name="device-name" value={name.value} required maxLength={64} onInput={(e) => { name.value = (e.target as HTMLInputElement).value; }} />
        </label>
        <label class="field">
          <span>Scope</span>
          <select name="scope" value={scope.value} onChange={(e) => { scope.value = (e.target as HTMLSelectElement).value as Scope; }}>
            {SCOPES.map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
        </label>
        <button type="submit" disabled={busy.value}>Create pairing link</button>
      </form>
      <p class="note">read: watch; approve: also answer approvals; input: also type and start sessions; admin: also manage devices.</p>
      {error.value !== null && <p class="problem" role="alert">{error.value}</p>}
      {pairing.value && <PairingResult pairing={pairing.value} />}
    </section>
  );
}
