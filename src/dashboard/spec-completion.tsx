/**
 * Schema completion for the spec editor's textarea: Ctrl+Space (or typing the quote that opens
 * a key) lists the keys the spec format allows at the caret that the object lacks, or the values
 * that fit (enums, booleans, the spec's own state ids), each with the schema's description.
 * ↑/↓ move, Enter or Tab insert, Esc closes; the list filters as you type. The schema comes from
 * the daemon (`GET /api/v1/spec-schema`), the one its loader checks with.
 */
import { useSignal } from '@preact/signals';
import type { JSX, RefObject } from 'preact';
import { call } from './api-client.js';
import { completeAt, type CompletionResult } from './json-completion.js';

type Schema = Record<string, unknown>;

let schemaOnce: Promise<Schema> | null = null;
function specSchema(): Promise<Schema> {
  schemaOnce ??= call('getSpecSchema', {}).catch((e: unknown) => { schemaOnce = null; throw e; });
  return schemaOnce;
}

export interface SchemaCompletion {
  /** Props for the textarea (keys and the listbox's ARIA wiring). */
  textareaProps: Pick<JSX.HTMLAttributes<HTMLTextAreaElement>, 'onKeyDown' | 'aria-autocomplete' | 'aria-controls' | 'aria-activedescendant'>;
  /** Call after every input, with the new text: keeps an open list current, opens it after a key's quote. */
  afterInput: (text: string, typed: string | null) => void;
  /** The list, rendered under the textarea. */
  list: JSX.Element | null;
}

const LIST_ID = 'spec-completions';

export function useSchemaCompletion(textarea: RefObject<HTMLTextAreaElement>, replaceText: (text: string) => void): SchemaCompletion {
  const open = useSignal<CompletionResult | null>(null);
  const active = useSignal(0);
  const problem = useSignal<string | null>(null);

  async function refresh(text: string, onlyKeys: boolean): Promise<void> {
    const el = textarea.current;
    if (!el) return;
    let schema: Schema;
    try {
      schema = await specSchema();
    } catch (e) {
      problem.value = `No completion: the schema could not be read (${e instanceof Error ? e.message : String(e)}).`;
      return;
    }
    problem.value = null;
    const result = completeAt(text, el.selectionStart, schema);
    open.value = result && (!onlyKeys || result.kind === 'key') ? result : null;
    active.value = 0;
  }

  function apply(index: number): void {
    const el = textarea.current;
    const result = open.value;
    const item = result?.items[index];
    if (!el || !result || !item) return;
    const text = el.value.slice(0, result.from) + item.insert + el.value.slice(result.to);
    const caret = result.from + item.insert.length;
    open.value = null;
    // The text and the caret change together, now: a caret set after the re-render (a frame
    // later) let a key typed in between land at the end of the text. The re-render then finds
    // the value it would set already there and leaves the caret alone.
    el.value = text;
    el.setSelectionRange(caret, caret);
    el.focus();
    replaceText(text);
  }

  const onKeyDown = (event: KeyboardEvent): void => {
    if (event.ctrlKey && (event.key === ' ' || event.code === 'Space')) {
      event.preventDefault();
      void refresh((event.currentTarget as HTMLTextAreaElement).value, false);
      return;
    }
    const result = open.value;
    if (!result) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const n = result.items.length;
      active.value = (active.value + (event.key === 'ArrowDown' ? 1 : n - 1)) % n;
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      apply(active.value);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      open.value = null;
    }
  };

  const afterInput = (text: string, typed: string | null): void => {
    if (open.value) void refresh(text, false);
    else if (typed === '"') void refresh(text, true);
  };

  const result = open.value;
  const optionId = (i: number) => `${LIST_ID}-${i}`;
  const list = problem.value
    ? <p class="muted" role="status">{problem.value}</p>
    : result ? (
      <ul id={LIST_ID} role="listbox" class="spec-completions" aria-label={result.kind === 'key' ? 'Keys allowed here' : 'Values allowed here'}>
        {result.items.map((item, i) => (
          <li key={item.label} id={optionId(i)} role="option" aria-selected={i === active.value}
            onMouseDown={(e) => { e.preventDefault(); apply(i); }}>
            <code>{item.label}</code>{item.detail ? <span class="muted"> — {item.detail}</span> : null}
          </li>
        ))}
      </ul>
    ) : null;
  return {
    textareaProps: {
      onKeyDown,
      'aria-autocomplete': 'list',
      'aria-controls': result ? LIST_ID : undefined,
      'aria-activedescendant': result ? optionId(active.value) : undefined,
    },
    afterInput,
    list,
  };
}
