/**
 * Devices (`/devices`, a lazy chunk: the QR encoder stays out of the first load): pair a new
 * device, list the device tokens (name, scope, created, last used, revoked) with this browser
 * marked, and revoke one after a confirmation. Managing devices needs the admin scope; a browser
 * paired with less is told so, and how to pair one with more.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { TokenView } from '../protocol/tokens.js';
import { scopeAllows } from '../protocol/scopes.js';
import { call } from './api-client.js';
import { PairDevice } from './devices-pairing.js';
import { device, scope } from './state.js';

const when = (at: number | null) => (at === null ? '—' : new Date(at).toLocaleString());

function DeviceRow(props: { token: TokenView; onChanged: () => void }) {
  const { token } = props;
  const confirming = useSignal(false);
  const error = useSignal<string | null>(null);
  const self = device.value?.id === token.id;
  const revoke = async () => {
    confirming.value = false;
    error.value = null;
    try { await call('revokeToken', { params: { id: token.id } }); props.onChanged(); } catch (e) { error.value = e instanceof Error ? e.message : String(e); }
  };
  return (
    <tr data-token-id={token.id} class={token.revoked_at !== null ? 'revoked' : undefined}>
      <td class="device-name">{token.name}{self && <span class="muted"> (this browser)</span>}</td>
      <td>{token.scope}</td>
      <td data-label="Paired">{when(token.created_at)}</td>
      <td data-label="Last used">{when(token.last_used_at)}</td>
      <td class="device-actions">
        {token.revoked_at !== null ? <span class="muted">revoked {when(token.revoked_at)}</span>
          : confirming.value ? (
            <>
              <button type="button" class="danger" aria-label={`Confirm revoking ${token.name}`} onClick={() => void revoke()}>{self ? 'Revoke and sign out' : 'Confirm revoke'}</button>
              <button type="button" onClick={() => { confirming.value = false; }}>Cancel</button>
            </>
          ) : <button type="button" aria-label={`Revoke ${token.name}`} onClick={() => { confirming.value = true; }}>Revoke</button>}
        {error.value !== null && <p class="problem" role="alert">{error.value}</p>}
      </td>
    </tr>
  );
}

function DeviceList(props: { tokens: TokenView[] | null; error: string | null; onChanged: () => void }) {
  if (props.error !== null) return <p class="problem" role="alert">The devices could not be read: {props.error}</p>;
  if (props.tokens === null) return <p role="status">Loading the devices…</p>;
  if (props.tokens.length === 0) return <p class="empty">No device tokens yet: pair one above.</p>;
  // Live devices first, then revoked ones; newest first within each.
  const sorted = [...props.tokens].sort((a, b) => Number(a.revoked_at !== null) - Number(b.revoked_at !== null) || b.created_at - a.created_at);
  return (
    <div class="table-scroll">
      <table class="devices">
        <thead><tr><th scope="col">Device</th><th scope="col">Scope</th><th scope="col">Paired</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody>{sorted.map((t) => <DeviceRow key={t.id} token={t} onChanged={props.onChanged} />)}</tbody>
      </table>
    </div>
  );
}

export default function DevicesView() {
  const tokens = useSignal<TokenView[] | null>(null);
  const error = useSignal<string | null>(null);
  const admin = scope.value !== null && scopeAllows(scope.value, 'admin');
  const load = () => {
    call('listTokens').then((r) => { tokens.value = r.tokens; error.value = null; }, (e: Error) => { error.value = e.message; });
  };
  useEffect(() => { if (admin) load(); }, [admin]);
  return (
    <section class="devices-view" aria-labelledby="devices-title">
      <h2 id="devices-title">Devices</h2>
      {scope.value === null ? <p role="status">Connecting…</p> : !admin ? (
        <div class="scope-notice">
          <p>Pairing, listing and revoking devices needs the admin scope; this browser has "{scope.value}".</p>
          <p>On the computer running the daemon, <code>specterm pair --name phone --scope approve</code> prints a pairing link and QR code for another device; <code>specterm pair --name laptop --scope admin</code> one for a browser that manages devices here.</p>
        </div>
      ) : (
        <>
          <PairDevice onPaired={load} />
          <h3>Paired devices</h3>
          <DeviceList tokens={tokens.value} error={error.value} onChanged={load} />
        </>
      )}
    </section>
  );
}
