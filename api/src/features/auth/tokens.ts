import { webcrypto } from 'node:crypto';
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

// Imported once per secret: jose would otherwise import the raw bytes again on every request.
const keys = new Map<string, Promise<webcrypto.CryptoKey>>();

function keyFrom(secret: string): Promise<webcrypto.CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    const bytes = new TextEncoder().encode(secret);
    key = webcrypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    keys.set(secret, key);
  }
  return key;
}

export async function signAccessToken(secret: string, claims: AccessClaims): Promise<string> {
  return new SignJWT({ sid: claims.sessionId, st: claims.sessionStart })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(ACCESS_TOKEN_TTL)
    .sign(await keyFrom(secret));
}

/**
 * Tokens that passed verification, by secret and token text, with their expiry (ms): a client sends
 * the same token on every request, and the WebCrypto HMAC costs about as much CPU as the rest of a
 * library request's authentication. The signature of the same text with the same key cannot change;
 * the expiry is checked again on every use. Oldest first, at most VERIFIED_LIMIT.
 */
const verified = new Map<string, { claims: AccessClaims; expiresAt: number }>();
const VERIFIED_LIMIT = 10_000;

function remember(key: string, claims: AccessClaims, exp: number | undefined): void {
  if (exp === undefined) return;
  if (verified.size >= VERIFIED_LIMIT) verified.delete(verified.keys().next().value as string);
  verified.set(key, { claims, expiresAt: exp * 1000 });
}

/** Only HS256 with our key and issuer passes; `alg: none`, forged and expired tokens do not. */
export async function verifyAccessToken(secret: string, token: string): Promise<AccessClaims> {
  const cacheKey = `${secret}\n${token}`;
  const known = verified.get(cacheKey);
  if (known) {
    if (known.expiresAt > Date.now()) return known.claims;
    verified.delete(cacheKey);
  }
  try {
    const { payload } = await jwtVerify(token, await keyFrom(secret), { algorithms: ['HS256'], issuer: ISSUER });
    const { sub, sid, st } = payload;
    if (typeof sub !== 'string' || typeof sid !== 'string' || typeof st !== 'number') throw new Error('claims');
    const claims = { userId: sub, sessionId: sid, sessionStart: st };
    remember(cacheKey, claims, payload.exp);
    return claims;
  } catch (err) {
    if (err instanceof errors.JWTExpired) throw new AppError('UNAUTHENTICATED', 'Token has expired');
    throw new AppError('UNAUTHENTICATED', 'Invalid or missing authentication token');
  }
}
