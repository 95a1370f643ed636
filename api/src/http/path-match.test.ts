import { describe, expect, it } from 'vitest';
import { inMatchOrder, RouteTable } from './path-match.js';

const byId = { method: 'get', path: '/admin/files/:id' } as const;
const stats = { method: 'get', path: '/admin/files/stats' } as const;
const update = { method: 'put', path: '/admin/files/:id' } as const;

describe('the REST path matcher', () => {
  it('tries a fixed segment before a parameter, whatever the declaration order', () => {
    expect(inMatchOrder([byId, update, stats])).toEqual([stats, byId, update]);
    const table = new RouteTable([byId, stats]);
    expect(table.find('GET', '/admin/files/stats')?.route).toBe(stats);
    expect(table.find('GET', '/admin/files/abc')).toEqual({ route: byId, params: ['abc'] });
  });

  it('keeps that order among routes of other lengths and shapes', () => {
    const others = ['/files/:id', '/files/cover/:id', '/devices/others', '/admin/users/:id/sessions'].map(
      (path) => ({ method: 'get', path }) as const,
    );
    const ordered = inMatchOrder([byId, ...others, stats, ...others]);
    expect(ordered.indexOf(stats)).toBeLessThan(ordered.indexOf(byId));
  });

  it('matches as Express does: any case, one trailing slash, one segment per parameter, HEAD as GET', () => {
    const table = new RouteTable([byId, update]);
    expect(table.find('GET', '/ADMIN/Files/abc/')?.params).toEqual(['abc']);
    expect(table.find('HEAD', '/admin/files/abc')?.route).toBe(byId);
    expect(table.find('PUT', '/admin/files/abc')?.route).toBe(update);
    expect(table.find('GET', '/admin/files/a/b')).toBeUndefined();
    expect(table.find('DELETE', '/admin/files/abc')).toBeUndefined();
    expect(table.has('/admin/files/abc')).toBe(true);
  });
});
