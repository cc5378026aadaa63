/**
 * Attaching an image to a session (`POST …/sessions/:id/images`): the image as base64 in a
 * JSON body, which the driver writes to a private temp file and hands to the agent the way the
 * spec's `attach_image` control says. The driver checks the bytes again (strict base64, the
 * format's magic bytes); the cap here keeps the body under the server's 1 MiB limit.
 * @module
 */
import { z } from 'zod';

/** The formats agent CLIs accept (the driver's image-attachment list). */
export const ImageMime = z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The largest image accepted, in bytes: its base64 and the JSON around it stay under 1 MiB. */
export const MAX_IMAGE_UPLOAD_BYTES = 700 * 1024;
const MAX_BASE64_CHARS = Math.ceil(MAX_IMAGE_UPLOAD_BYTES / 3) * 4;

export const AttachImageRequest = z.strictObject({
  mime: ImageMime,
  data: z.string().min(4).max(MAX_BASE64_CHARS, `the image is over ${MAX_IMAGE_UPLOAD_BYTES / 1024} KiB; send a smaller one (crop or compress it)`)
    .meta({ description: 'the image bytes, standard base64 with padding' }),
  name: z.string().max(256).optional().meta({ description: 'the file name, for the UI only' }),
}).meta({ examples: [{ mime: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==', name: 'screenshot.png' }] });

export const AttachImageResult = z.strictObject({
  attached_bytes: z.number().int().positive(),
  control_id: z.string().meta({ description: 'the spec control that carried the image' }),
});
