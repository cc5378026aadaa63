/**
 * Creating a session from the overview: spec (an id or a path, with the recent and built-in
 * specs offered under it), cwd, arguments (split as a shell would), name, labels and an
 * optional new worktree branch. What the page can check it checks first, in words naming the
 * field; the daemon validates the rest, and a refusal shows its message and keeps what was typed.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { CreateSessionRequest, SessionDetail } from '../protocol/sessions.js';
import { call } from './api-client.js';
import { parseLabels, splitArgs } from './session-filter.js';
import { checkSpecRef, listSpecChoices, readRecentSpecs, rememberSpec } from './spec-choices.js';
import { sessions } from './state.js';

type Field = 'spec' | 'cwd' | 'args' | 'name' | 'labels' | 'branch';

/** The request the form's texts make, or the first field error. */
function requestOf(v: Record<Field, string>, builtin: readonly string[] | null): { body: CreateSessionRequest } | { error: string } {
  const specProblem = checkSpecRef(v.spec.trim(), builtin);
  if (specProblem) return { error: specProblem };
  const cwd = v.cwd.trim();
  if (!cwd.startsWith('/')) return { error: `Working directory: give an absolute path, such as /home/you/project${cwd ? ` ("${cwd}" is relative)` : ''}.` };
  const args = splitArgs(v.args);
  if ('error' in args) return { error: `Arguments: ${args.error}` };
  const labels = parseLabels(v.labels);
  if ('error' in labels) return { error: `Labels: ${labels.error}` };
  const body: CreateSessionRequest = { spec: v.spec.trim(), cwd: v.cwd.trim(), args: args.args };
  if (v.name.trim()) body.name = v.name.trim();
  if (Object.keys(labels.labels).length > 0) body.labels = labels.labels;
  if (v.branch.trim()) body.worktree = { branch: v.branch.trim() };
  return { body };
}

export function SessionCreateForm(props: { onCreated: (session: SessionDetail) => void }) {
  const values = useSignal<Record<Field, string>>({ spec: 'demo-agent', cwd: '', args: '', name: '', labels: '', branch: '' });
  const error = useSignal<string | null>(null);
  const busy = useSignal(false);
  /** The built-in spec ids; null until read (or when they cannot be: the daemon then checks alone). */
  const builtin = useSignal<string[] | null>(null);
  useEffect(() => {
    call('listSpecs').then((r) => { builtin.value = r.specs.map((s) => s.id); }, () => { builtin.value = null; });
  }, []);
  const set = (field: Field) => (e: Event) => { values.value = { ...values.value, [field]: (e.target as HTMLInputElement).value }; };
  const submit = async (e: Event) => {
    e.preventDefault();
    const request = requestOf(values.value, builtin.value);
    if ('error' in request) { error.value = request.error; return; }
    busy.value = true;
    error.value = null;
    try {
      const session = await call('createSession', { body: request.body });
      rememberSpec(request.body.spec);
      values.value = { ...values.value, name: '', branch: '' };
      props.onCreated(session);
    } catch (err) {
      error.value = err instanceof Error ? err.message : String(err);
    } finally {
      busy.value = false;
    }
  };
  const v = values.value;
  const choices = listSpecChoices(readRecentSpecs(), [...new Set((sessions.value ?? []).map((s) => s.spec.id))], builtin.value ?? []);
  const input = (field: Field, label: string, extra: Record<string, unknown> = {}) => (
    <label class="field">
      <span>{label}</span>
      <input name={field} value={v[field]} onInput={set(field)} spellcheck={false} autocomplete="off" {...extra} />
    </label>
  );
  return (
    <details class="create">
      <summary>New session</summary>
      <form class="create-form" onSubmit={(e) => void submit(e)} aria-label="New session">
        {input('spec', 'Spec (id or path)', { required: true, list: 'spec-choices' })}
        <datalist id="spec-choices">{choices.map((c) => <option key={c.id} value={c.id} label={c.note} />)}</datalist>
        {input('cwd', 'Working directory (absolute)', { required: true, placeholder: '/home/you/project' })}
        {input('args', 'Arguments', { placeholder: '--model "big one"' })}
        {input('name', 'Name')}
        {input('labels', 'Labels', { placeholder: 'team=core, ci=1' })}
        {input('branch', 'New worktree branch (optional)', { placeholder: 'agent/fix-tests' })}
        <button type="submit" disabled={busy.value}>Create</button>
        {error.value !== null && <p class="problem" role="alert">{error.value}</p>}
      </form>
    </details>
  );
}
