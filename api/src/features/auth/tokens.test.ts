import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signAccessToken, verifyAccessToken } from './tokens.js';

const secret = 'a-test-secret-a-test-secret-a-test-secret-0123';
const claims = { userId: 'user-1', sessionId: 'session-1', sessionStart: 1_700_000_000_000 };

afterEach(() => {
  vi.useRealTimers();
});

describe('access tokens', () => {
  it('refuses a token verified before once it has expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ sid: claims.sessionId, st: claims.sessionStart })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.userId)
      .setIssuer('protected-audio-library')
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(new TextEncoder().encode(secret));
    await expect(verifyAccessToken(secret, token)).resolves.toEqual(claims);
    vi.setSystemTime((now + 61) * 1000);
    await expect(verifyAccessToken(secret, token)).rejects.toMatchObject({ message: 'Token has expired' });
  });

  it('refuses a token verified before under another secret', async () => {
    const token = await signAccessToken(secret, claims);
    await expect(verifyAccessToken(secret, token)).resolves.toEqual(claims);
    await expect(verifyAccessToken(`${secret}-other`, token)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
