/**
 * Attaching an image to a session: drop it on the terminal area, paste it (in the send box or
 * anywhere in the area), or pick a file. The page checks the format and the size first (so a
 * wrong file is refused at once, saying why), then posts it as base64 (`POST …/images`); the
 * daemon's driver types it in through the spec's attach_image control. Shown only for a spec
 * that has such a control.
 */
import { useSignal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import { ImageMime, MAX_IMAGE_UPLOAD_BYTES } from '../protocol/images.js';
import { ApiProblem, call } from './api-client.js';

type Status = { kind: 'sending' | 'attached' | 'refused'; text: string } | null;

/** Why `file` cannot be sent, or null when it can. */
export function imageRefusal(file: { type: string; size: number; name: string }): string | null {
  if (!(ImageMime.options as readonly string[]).includes(file.type)) return `${file.name || 'the file'} is ${file.type || 'of no known type'}; attach a PNG, JPEG, GIF or WebP image`;
  if (file.size > MAX_IMAGE_UPLOAD_BYTES) return `${file.name || 'the image'} is ${Math.ceil(file.size / 1024)} KiB, over the ${MAX_IMAGE_UPLOAD_BYTES / 1024} KiB limit; crop or compress it`;
  return null;
}

async function base64Of(file: Blob): Promise<string> {
  const url = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsDataURL(file);
  });
  return url.slice(url.indexOf(',') + 1);
}

export function ImageDrop(props: { sessionId: string; enabled: boolean; children: ComponentChildren }) {
  const status = useSignal<Status>(null);
  const over = useSignal(false);
  const attach = async (file: File) => {
    const refusal = imageRefusal(file);
    if (refusal) { status.value = { kind: 'refused', text: refusal }; return; }
    status.value = { kind: 'sending', text: `Attaching ${file.name || 'the image'}…` };
    try {
      const result = await call('attachImage', { params: { id: props.sessionId }, body: { mime: file.type as typeof ImageMime.options[number], data: await base64Of(file), name: file.name || undefined } });
      status.value = { kind: 'attached', text: `Attached ${file.name || 'the image'} (${Math.ceil(result.attached_bytes / 1024)} KiB)` };
    } catch (error) {
      status.value = { kind: 'refused', text: error instanceof ApiProblem ? error.message : String(error) };
    }
  };
  const firstImage = (items: DataTransferItemList | null | undefined, files: FileList | null | undefined): File | null => {
    for (const item of Array.from(items ?? [])) if (item.kind === 'file') { const f = item.getAsFile(); if (f) return f; }
    return files?.[0] ?? null;
  };
  if (!props.enabled) return <>{props.children}</>;
  return (
    <div class={`image-drop${over.value ? ' image-drop-over' : ''}`}
      onDragOver={(e) => { e.preventDefault(); over.value = true; }}
      onDragLeave={() => { over.value = false; }}
      onDrop={(e) => { e.preventDefault(); over.value = false; const f = firstImage(e.dataTransfer?.items, e.dataTransfer?.files); if (f) void attach(f); }}
      onPaste={(e) => { const f = firstImage(e.clipboardData?.items, e.clipboardData?.files); if (f) { e.preventDefault(); void attach(f); } }}>
      {props.children}
      <div class="image-tools">
        <label class="file-pick">
          Attach image
          <input type="file" accept={ImageMime.options.join(',')} class="visually-hidden"
            onChange={(e) => { const f = (e.target as HTMLInputElement).files?.[0]; if (f) void attach(f); (e.target as HTMLInputElement).value = ''; }} />
        </label>
        <span class="hint">or drop / paste one here</span>
        {status.value && <span class={`image-status image-${status.value.kind}`} role="status">{status.value.text}</span>}
      </div>
    </div>
  );
}
