/**
 * Whether this browser draws WebGL2 on a GPU. Without one (a VM, a remote desktop, Chromium with
 * `--disable-gpu`), Chromium still offers WebGL2, drawn in software by SwiftShader (Mesa's
 * llvmpipe on Linux builds without it). There xterm's WebGL renderer is the slower choice: its
 * first frame waits for shaders compiled on the CPU, and each frame's rasterising takes CPU from
 * everything else on the machine — the daemon feeding the same page included. Measured with
 * `npm run bench:dashboard` (docs/performance.md, "Dashboard in the browser"): with SwiftShader,
 * first paint p95 328–413 ms and lag p99 105–115 ms over 10 streaming sessions; the DOM
 * renderer on the same box, 247–265 ms and 21–26 ms.
 *
 * @module
 */

/** Renderer names of software WebGL implementations. */
const SOFTWARE_RENDERER = /swiftshader|llvmpipe|softpipe|software|basic render driver/i;

/** What the probe needs from a canvas: `getContext` with WebGL2's context attributes. */
export interface ProbeCanvas {
  getContext(kind: 'webgl2', attributes: WebGLContextAttributes): WebGL2RenderingContext | null;
}

/**
 * True when WebGL2 is there and hardware-drawn. `failIfMajorPerformanceCaveat` makes Chromium
 * and Firefox refuse a software context; the renderer's name catches browsers that hand one out
 * anyway. The probe's context is released at once (browsers cap live contexts per page).
 */
export function hasGpuWebgl2(canvas: ProbeCanvas): boolean {
  let gl: WebGL2RenderingContext | null = null;
  try {
    gl = canvas.getContext('webgl2', { failIfMajorPerformanceCaveat: true });
    if (!gl) return false;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name = info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
    return !SOFTWARE_RENDERER.test(String(name));
  } catch {
    return false;
  } finally {
    gl?.getExtension('WEBGL_lose_context')?.loseContext();
  }
}

let cached: boolean | undefined;

/** {@link hasGpuWebgl2} for this page, probed once. */
export function pageHasGpuWebgl2(): boolean {
  cached ??= hasGpuWebgl2(document.createElement('canvas'));
  return cached;
}
