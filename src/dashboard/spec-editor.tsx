/**
 * The spec editor (`/sessions/<id>/spec`): the session's spec JSON in a textarea, validated as
 * you type (debounced, by the daemon's `…/spec/validate`, so the messages are `specterm
 * validate`'s), a condition preview on the live screen, and Save (`PUT …/spec`, which
 * hot-reloads the driver), with completion from the spec format's JSON Schema (spec-completion.tsx).
 * Text with errors is not saved unless "Save anyway" is checked; even
 * then the running spec stays in force, so an edit never stops the session.
 */
import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import type { ConditionPreview, SessionSpec, SpecValidation } from '../protocol/spec-edit.js';
import { ApiProblem, call } from './api-client.js';
import { useSchemaCompletion } from './spec-completion.js';

/** Validate this long after the last keystroke (one request per pause, not per key). */
export const VALIDATE_DEBOUNCE_MS = 300;

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export default function SpecEditor(props: { sessionId: string; onSaved?: () => void }) {
  const { sessionId } = props;
  const spec = useSignal<SessionSpec | null>(null);
  const text = useSignal('');
  const validation = useSignal<SpecValidation | null>(null);
  const force = useSignal(false);
  const status = useSignal<string | null>(null);
  const error = useSignal<string | null>(null);
  const condition = useSignal('{"matches": ""}');
  const preview = useSignal<ConditionPreview | null>(null);
  const previewError = useSignal<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(0);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const completion = useSchemaCompletion(textarea, (value) => onInput(value));
  const params = { id: sessionId };

  useEffect(() => {
    let stopped = false;
    call('getSessionSpec', { params }).then((s) => {
      if (stopped) return;
      spec.value = s;
      text.value = s.text;
      validate(s.text);
    }, (e) => { if (!stopped) error.value = message(e); });
    return () => { stopped = true; clearTimeout(timer.current); };
  }, [sessionId]);

  function validate(value: string): void {
    const ticket = ++latest.current;
    call('validateSessionSpec', { params, body: { text: value } }).then((v) => {
      if (ticket === latest.current) validation.value = v;
    }, (e) => { if (ticket === latest.current) error.value = message(e); });
  }

  function onInput(value: string): void {
    text.value = value;
    validation.value = null;
    status.value = null;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => validate(value), VALIDATE_DEBOUNCE_MS);
  }

  async function save(): Promise<void> {
    error.value = null;
    status.value = 'Saving…';
    try {
      const saved = await call('saveSessionSpec', { params, body: { text: text.value, force: force.value } });
      validation.value = saved.validation;
      status.value = saved.reloaded ? `Saved to ${saved.path} and reloaded.` : `Saved to ${saved.path}; not reloaded (${saved.validation.ok ? 'the session is not running' : 'it has errors: the old spec keeps running'}).`;
      if (spec.value) spec.value = { ...spec.value, path: saved.path, override: saved.override };
      props.onSaved?.();
    } catch (e) {
      status.value = null;
      error.value = e instanceof ApiProblem && e.code === 'SPEC_INVALID' ? `Not saved: ${e.message}` : message(e);
    }
  }

  async function runPreview(): Promise<void> {
    previewError.value = null;
    preview.value = null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(condition.value);
    } catch (e) {
      previewError.value = `The condition is not JSON: ${message(e)}`;
      return;
    }
    try {
      preview.value = await call('previewSpecCondition', { params, body: { condition: parsed as Record<string, unknown> } });
    } catch (e) {
      previewError.value = message(e);
    }
  }

  const v = validation.value;
  const invalid = v !== null && !v.ok;
  const canSave = v !== null && (v.ok || force.value);
  return (
    <section class="spec-editor" aria-labelledby="spec-editor-title">
      <h2 id="spec-editor-title">Spec · session {sessionId}</h2>
      {spec.value ? (
        <p class="muted">
          <code>{spec.value.path}</code>
          {spec.value.builtin && !spec.value.override ? ' (built in: a save goes to a copy for this session only)' : null}
          {spec.value.override ? ' (this session\'s copy of a built-in spec)' : null}
        </p>
      ) : <p role="status">Loading the spec…</p>}
      {error.value ? <p class="problem" role="alert">{error.value}</p> : null}
      <label for="spec-text">Spec JSON</label>
      <textarea id="spec-text" ref={textarea} class="spec-text" spellcheck={false} rows={24} value={text.value}
        aria-describedby="spec-validation spec-completion-hint" aria-invalid={invalid} {...completion.textareaProps}
        onInput={(e) => {
          const value = (e.currentTarget as HTMLTextAreaElement).value;
          onInput(value);
          completion.afterInput(value, (e as InputEvent).data ?? null);
        }} />
      <p id="spec-completion-hint" class="hint"><kbd>Ctrl</kbd>+<kbd>Space</kbd> lists the keys and values the spec format allows at the caret.</p>
      {completion.list}
      <div id="spec-validation" role="status" aria-live="polite">
        {v === null ? <p class="muted">Checking…</p> : v.ok ? <p class="spec-ok">Valid{v.warnings.length ? `, ${v.warnings.length} warning(s)` : ''}.</p> : (
          <p class="problem">{v.errors.length} error(s):</p>
        )}
        {v && v.errors.length ? (
          <ul class="spec-errors" aria-label="Errors">
            {v.errors.map((e) => <li key={`${e.path}:${e.code}:${e.message}`}><code>{e.path}</code> {e.message}</li>)}
          </ul>
        ) : null}
        {v && v.warnings.length ? (
          <ul class="spec-warnings" aria-label="Warnings">
            {v.warnings.map((w) => <li key={`${w.path}:${w.code}:${w.message}`}><code>{w.path}</code> {w.message}</li>)}
          </ul>
        ) : null}
      </div>
      <div class="spec-actions">
        {invalid ? (
          <label><input type="checkbox" checked={force.value} onChange={(e) => { force.value = (e.currentTarget as HTMLInputElement).checked; }} /> Save anyway (the old spec keeps running)</label>
        ) : null}
        <button type="button" disabled={!canSave} onClick={() => void save()}>Save</button>
        {status.value ? <span role="status">{status.value}</span> : null}
      </div>
      <h3>Condition preview</h3>
      <label for="spec-condition">Condition (JSON) to evaluate on the screen now</label>
      <textarea id="spec-condition" class="spec-condition" spellcheck={false} rows={3} value={condition.value}
        onInput={(e) => { condition.value = (e.currentTarget as HTMLTextAreaElement).value; }} />
      <button type="button" onClick={() => void runPreview()}>Preview</button>
      <div role="status" aria-live="polite" class="spec-preview">
        {previewError.value ? <p class="problem">{previewError.value}</p> : null}
        {preview.value ? <p><strong>{preview.value.result ? 'true' : 'false'}</strong> · {preview.value.cond.detail}{preview.value.cond.matched_text ? <> · matched <code>{preview.value.cond.matched_text}</code></> : null}</p> : null}
      </div>
    </section>
  );
}
