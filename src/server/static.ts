/**
 * Serves the built dashboard (`dist/dashboard`) at `/`: GET and HEAD only, no directory
 * listing, no path outside the directory (dot segments, encoded slashes, NUL and symlinks out
 * are refused), a content type per extension, `immutable` caching for hashed assets and
 * `no-cache` for the HTML, and a strict Content-Security-Policy on every answer.
 * @module
 */
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_PREFIX } from '../protocol/index.js';
import { SpectermError } from '../protocol/index.js';
import { parseTarget } from './http-pipeline.js';
import { checkOrigin, type OriginPolicy } from './origin-guard.js';
import { toProblem } from './problem.js';

/** `/api`: the API's paths (any version) are never dashboard files. */
const API_ROOT = API_PREFIX.slice(0, API_PREFIX.indexOf('/', 1));

/**
 * No inline script, nothing from another origin, no framing. `style-src` allows inline styles:
 * xterm.js writes its cell colours and sizes into a `<style>` element it creates.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data:",
  "font-src 'self'", "connect-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
].join('; ');

const STATIC_HEADERS = {
  'content-security-policy': DASHBOARD_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.woff2': 'font/woff2', '.ttf': 'font/ttf', '.map': 'application/json', '.txt': 'text/plain; charset=utf-8',
};

/** Files under `assets/` carry a content hash in their name (the build's), so they never change. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** `<package root>/dist/dashboard`, found from this module in `src/server` or `dist/server`. */
export function defaultDashboardDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, 'dist', 'dashboard');
}

export class StaticFiles {
  readonly #root: string;

  /** `root` must hold an `index.html` (the build's); `StaticFiles.open` checks that. */
  private constructor(root: string) {
    this.#root = root;
  }

  /** The dashboard in `dir`, or null when it has not been built there. */
  static open(dir: string): StaticFiles | null {
    try {
      const root = fs.realpathSync(dir);
      return fs.statSync(path.join(root, 'index.html')).isFile() ? new StaticFiles(root) : null;
    } catch {
      return null;
    }
  }

  /** Answers `req` for `pathname` (already parsed, not decoded); throws SpectermError 404/405. */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      throw new SpectermError({ code: 'METHOD_NOT_ALLOWED', title: 'Method not allowed', detail: `${req.method} is not allowed on ${pathname}; the dashboard's files answer GET and HEAD`, allow: ['GET', 'HEAD'] });
    }
    const file = this.#resolve(pathname);
    const body = fs.readFileSync(file);
    const ext = path.extname(file);
    const hashedAsset = path.relative(this.#root, file).startsWith(`assets${path.sep}`);
    res.writeHead(200, {
      ...STATIC_HEADERS,
      'content-type': TYPES[ext] ?? 'application/octet-stream',
      'cache-control': hashedAsset ? IMMUTABLE : 'no-cache',
      'content-length': body.length,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  /** The real file for `pathname`: `/` and extension-less paths (app routes) are `index.html`. */
  #resolve(pathname: string): string {
    const missing = () => new SpectermError({ code: 'FILE_NOT_FOUND', title: 'No such file', detail: `the dashboard has no file ${pathname}; open / for the dashboard` });
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      throw missing();
    }
    const segments = decoded.split('/').filter((s) => s !== '');
    // Refused outright rather than normalized: a request that needs them is not from our pages.
    if (segments.some((s) => s === '..' || s === '.' || s.startsWith('.') || s.includes('\\') || s.includes('\0'))) throw missing();
    const wanted = segments.length === 0 || !path.extname(segments.at(-1)!) ? 'index.html' : segments.join('/');
    let real: string;
    try {
      real = fs.realpathSync(path.join(this.#root, wanted));
    } catch {
      throw missing();
    }
    // A symlink inside the build that points out of it is not served.
    if (!real.startsWith(this.#root + path.sep) || !fs.statSync(real).isFile()) throw missing();
    return real;
  }
}

/** Whether `target` is a dashboard path (everything outside the API). */
export function isDashboardPath(pathname: string): boolean {
  return pathname !== API_ROOT && !pathname.startsWith(`${API_ROOT}/`);
}

/**
 * Serves a dashboard request. Only the Host is checked (DNS rebinding): the files hold no
 * secret, and opening a pairing link from another site is a cross-site navigation that must work.
 */
export function serveDashboard(req: IncomingMessage, res: ServerResponse, files: StaticFiles, policy: OriginPolicy, onUnexpected: (error: unknown) => void): void {
  let pathname = '/';
  try {
    pathname = parseTarget(req.url).pathname;
    checkOrigin({ host: req.headers.host }, policy);
    files.serve(req, res, pathname);
  } catch (error) {
    const problem = toProblem(error, pathname, onUnexpected);
    const text = JSON.stringify(problem.body);
    if (res.headersSent) return void res.destroy();
    res.writeHead(problem.status, { ...STATIC_HEADERS, 'cache-control': 'no-store', ...problem.headers, 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }
}
