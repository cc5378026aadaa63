/**
 * Matches a method + path against the route table: the route and its raw path parameters,
 * or a 404 (no such path) / 405 (path exists, method does not; with `Allow`).
 * @module
 */
import type { RouteDef } from '../protocol/index.js';
import { SpectermError } from '../protocol/index.js';

interface Compiled { route: RouteDef; pattern: RegExp; names: string[] }

export interface RouteMatch { route: RouteDef; params: Record<string, string> }

export class Router {
  readonly #compiled: Compiled[];

  constructor(routes: readonly RouteDef[]) {
    this.#compiled = routes.map((route) => {
      const names: string[] = [];
      const source = route.path.split('/').map((segment) => {
        if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(segment.slice(1));
        return '([^/]+)';
      }).join('/');
      return { route, pattern: new RegExp(`^${source}$`), names };
    });
  }

  /** Whether `method pathname` is a route that takes no credential (checked before authentication). */
  isPublic(method: string, pathname: string): boolean {
    return this.#compiled.some(({ route, pattern }) => route.public === true && route.method === method && pattern.test(pathname));
  }

  /** The matching route; throws 404 or 405 as a problem. */
  match(method: string, pathname: string): RouteMatch {
    const allowed: string[] = [];
    for (const { route, pattern, names } of this.#compiled) {
      const found = pattern.exec(pathname);
      if (!found) continue;
      if (route.method !== method) {
        allowed.push(route.method);
        continue;
      }
      const params: Record<string, string> = {};
      names.forEach((name, i) => { params[name] = decodeSegment(found[i + 1]!); });
      return { route, params };
    }
    if (allowed.length > 0) {
      throw new SpectermError({
        code: 'METHOD_NOT_ALLOWED', title: 'Method not allowed',
        detail: `${method} is not allowed on ${pathname}; use ${allowed.join(' or ')}`,
        allow: allowed,
      });
    }
    throw new SpectermError({
      code: 'ROUTE_NOT_FOUND', title: 'No such route',
      detail: `no route ${method} ${pathname}; the routes are listed in GET /api/v1/openapi.json`,
    });
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // left as sent: the params schema then names it as invalid
  }
}
