import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { loggedPath } from './errors.js';

const token = 'Zk3n9Q_x-2LmPq8RtVw4YbC7dE';
const request = (path: string, route?: string, baseUrl = '') =>
  ({ path, baseUrl, route: route === undefined ? undefined : { path: route } }) as unknown as Request;

describe('the path an unhandled error logs', () => {
  it('is the route pattern when a route matched, so a token in the path never reaches the log', () => {
    expect(loggedPath(request(`/drm/stream/${token}`, '/drm/stream/:token', '/api/v1'))).toBe(
      '/api/v1/drm/stream/:token',
    );
  });

  it('masks long opaque segments but keeps ids when no route matched', () => {
    const id = '0b6e2f0e-8c1a-4d47-9a57-3f1c2b9d8e11';
    expect(loggedPath(request(`/api/v1/drm/stream/${token}`))).toBe('/api/v1/drm/stream/[masked]');
    expect(loggedPath(request(`/api/v1/files/${id}/chapters`))).toBe(`/api/v1/files/${id}/chapters`);
  });
});
