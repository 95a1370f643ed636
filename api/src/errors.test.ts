import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError, errorCodes } from './errors.js';

describe('error codes', () => {
  it('are listed in docs/api.md with their HTTP status and meaning, as errors.ts defines them', () => {
    const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const rows = [...doc.matchAll(/^\| `([A-Z_]+)` +\| (\d{3}) +\| (.+?) +\|$/gm)].map((m) => [
      m[1],
      Number(m[2]),
      m[3],
    ]);
    expect(rows).toEqual(
      Object.entries(errorCodes).map(([code, { httpStatus, meaning }]) => [code, httpStatus, meaning]),
    );
  });

  it('give each AppError its HTTP status', () => {
    expect(new AppError('RATE_LIMITED', 'slow down').httpStatus).toBe(429);
    expect(new AppError('DEVICE_APPROVAL_REQUIRED', 'approve').httpStatus).toBe(403);
  });
});
