import { describe, expect, it } from 'vitest';
import { hasGpuWebgl2, type ProbeCanvas } from './gpu-webgl.js';

/** A WebGL2 context as far as the probe reads it: the renderer's name and the lose-context call. */
function canvasWith(renderer: string | null, opts: { debugInfo?: boolean } = {}) {
  const calls = { attributes: [] as WebGLContextAttributes[], lost: 0 };
  const UNMASKED_RENDERER_WEBGL = 0x9246;
  const RENDERER = 0x1f01;
  const gl = {
    RENDERER,
    getExtension(name: string) {
      if (name === 'WEBGL_debug_renderer_info') return opts.debugInfo === false ? null : { UNMASKED_RENDERER_WEBGL };
      if (name === 'WEBGL_lose_context') return { loseContext: () => { calls.lost += 1; } };
      return null;
    },
    getParameter: (p: number) => (p === UNMASKED_RENDERER_WEBGL || p === RENDERER ? renderer : null),
  };
  const canvas: ProbeCanvas = {
    getContext: (_kind, attributes) => { calls.attributes.push(attributes); return renderer === null ? null : gl as unknown as WebGL2RenderingContext; },
  };
  return { canvas, calls };
}

describe('hasGpuWebgl2', () => {
  it('asks for a context that fails on a major performance caveat, and takes none as no GPU', () => {
    const { canvas, calls } = canvasWith(null);
    expect(hasGpuWebgl2(canvas)).toBe(false);
    expect(calls.attributes).toEqual([{ failIfMajorPerformanceCaveat: true }]);
  });

  it.each(['Google SwiftShader', 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero)), SwiftShader driver)', 'llvmpipe (LLVM 15.0.6, 256 bits)', 'Microsoft Basic Render Driver'])('reads %s as software', (name) => {
    const { canvas, calls } = canvasWith(name);
    expect(hasGpuWebgl2(canvas)).toBe(false);
    expect(calls.lost).toBe(1);
  });

  it('reads a GPU as hardware, by the unmasked name or, without the debug extension, by RENDERER', () => {
    const gpu = canvasWith('ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11 vs_5_0 ps_5_0)');
    expect(hasGpuWebgl2(gpu.canvas)).toBe(true);
    expect(gpu.calls.lost).toBe(1);
    expect(hasGpuWebgl2(canvasWith('Apple M2', { debugInfo: false }).canvas)).toBe(true);
  });

  it('takes a throwing getContext as no WebGL', () => {
    expect(hasGpuWebgl2({ getContext: () => { throw new Error('blocked'); } })).toBe(false);
  });
});
