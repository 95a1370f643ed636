import { SignJWT, jwtVerify, errors } from 'jose';
import { AppError } from '../../errors.js';

const ISSUER = 'protected-audio-library';
const ACCESS_TOKEN_TTL = '7d';

export interface AccessClaims {
  userId: string;
  sessionId: string;
}

function keyFrom(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

export async function signAccessToken(secret: string, claims: AccessClaims): Promise<string> {
  return new SignJWT({ sid: claims.sessionId })
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
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') throw new Error('claims');
    return { userId: payload.sub, sessionId: payload.sid };
  } catch (err) {
    if (err instanceof errors.JWTExpired) throw new AppError('UNAUTHENTICATED', 'Token has expired');
    throw new AppError('UNAUTHENTICATED', 'Invalid or missing authentication token');
  }
}
