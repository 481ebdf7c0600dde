import { SignJWT, jwtVerify } from 'jose';

export interface TokenClaims {
  userId: string;
  sessionId: string;
  /** Which of the session's tokens this is: a refresh retires the one it replaced. */
  tokenId: string | null;
}

export interface Tokens {
  sign(claims: TokenClaims, expiresAt: Date): Promise<string>;
  verify(token: string): Promise<TokenClaims | null>;
}

export function createTokens(secret: string): Tokens {
  const key = new TextEncoder().encode(secret);
  return {
    async sign({ userId, sessionId, tokenId }, expiresAt) {
      return new SignJWT({ sid: sessionId, ...(tokenId ? { tid: tokenId } : {}) })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(userId)
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
        return { userId: payload.sub, sessionId: payload.sid, tokenId: typeof payload.tid === 'string' ? payload.tid : null };
      } catch {
        return null;
      }
    },
  };
}
