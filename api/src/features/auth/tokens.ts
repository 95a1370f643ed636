import { SignJWT, jwtVerify, errors } from 'jose';
import { AppError } from '../../errors.js';

const ISSUER = 'protected-audio-library';
const ACCESS_TOKEN_TTL = '7d';

export interface AccessClaims {
  userId: string;
  sessionId: string;
  /**
   * When the device session the token was signed for began (ms): a session row is reopened by a
   * later sign-in on the same device, and a token from before that must not work again.
   */
  sessionStart: number;
}

function keyFrom(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

export async function signAccessToken(secret: string, claims: AccessClaims): Promise<string> {
  return new SignJWT({ sid: claims.sessionId, st: claims.sessionStart })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(ACCESS_TOKEN_TTL)
    .sign(keyFrom(secret));
}

/** Only HS256 with our key and issuer passes; `alg: none`, forged and expired tokens do not. */
export async function verifyAccessToken(secret: string, token: string): Promise<AccessClaims> {
  try {
    const { payload } = await jwtVerify(token, keyFrom(secret), { algorithms: ['HS256'], issuer: ISSUER });
    const { sub, sid, st } = payload;
    if (typeof sub !== 'string' || typeof sid !== 'string' || typeof st !== 'number') throw new Error('claims');
    return { userId: sub, sessionId: sid, sessionStart: st };
  } catch (err) {
    if (err instanceof errors.JWTExpired) throw new AppError('UNAUTHENTICATED', 'Token has expired');
    throw new AppError('UNAUTHENTICATED', 'Invalid or missing authentication token');
  }
}
