import type { HttpMethod } from './contract.js';

interface Routed {
  method: HttpMethod;
  /** An Express route path, `:name` for a parameter. */
  path: string;
}

/** Matches a URL path as Express does: any letter case, one trailing slash, one segment per parameter. */
function pathPattern(path: string): RegExp {
  const parts = path
    .split('/')
    .map((part) => (part.startsWith(':') ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${parts.join('/')}/?$`, 'i');
}

/**
 * Segment by segment, a fixed segment before a parameter: `/admin/files/stats` is tried before
 * `/admin/files/:id`, whatever the order routes are declared in. A total order (segment kinds
 * compared as words), so that sorting keeps it; otherwise declaration order.
 */
function bySpecificity(a: Routed, b: Routed): number {
  const kinds = (route: Routed) => route.path.split('/').map((part) => (part.startsWith(':') ? 'p' : 'f'));
  const ak = kinds(a);
  const bk = kinds(b);
  for (let i = 0; i < Math.min(ak.length, bk.length); i++) {
    if (ak[i] !== bk[i]) return ak[i] === 'f' ? -1 : 1;
  }
  return ak.length - bk.length;
}

/** Routes in the order they are tried: the Express router registers them so, the table matches so. */
export function inMatchOrder<R extends Routed>(routes: readonly R[]): R[] {
  return [...routes].sort(bySpecificity);
}

export interface PathMatch<R> {
  route: R;
  /** The path parameters' raw (undecoded) values, in the path's order. */
  params: string[];
}

/** THE path matcher of REST /api/v1: the scope guard and the byte server find their route with it. */
export class RouteTable<R extends Routed> {
  private readonly entries: { route: R; pattern: RegExp }[];

  constructor(routes: readonly R[]) {
    this.entries = inMatchOrder(routes).map((route) => ({ route, pattern: pathPattern(route.path) }));
  }

  /** The route a request goes to; HEAD goes to a GET route unless one is declared for HEAD (as Express does). */
  find(method: string, path: string): PathMatch<R> | undefined {
    const verb = method.toLowerCase();
    return this.match(path, verb) ?? (verb === 'head' ? this.match(path, 'get') : undefined);
  }

  /** Whether any route, of any method, has this path. */
  has(path: string): boolean {
    return this.entries.some(({ pattern }) => pattern.test(path));
  }

  private match(path: string, method: string): PathMatch<R> | undefined {
    for (const { route, pattern } of this.entries) {
      if (route.method !== method) continue;
      const found = pattern.exec(path);
      if (found) return { route, params: found.slice(1) };
    }
    return undefined;
  }
}
