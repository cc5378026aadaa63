// The dashboard's build: src/dashboard → dist/dashboard (index.html + hashed assets under
// assets/). No inline script (the CSP forbids it), no CDN, no external fonts.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  // public/: the service worker (/sw.js, root scope), the PWA manifest and its icon, copied as is.
  publicDir: fileURLToPath(new URL('./public', import.meta.url)),
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    // The polyfill would be an inline script; every browser we support has modulepreload.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    chunkSizeWarningLimit: 1024,
  },
});
