import type { User } from '../users/user.entity.js';
import type { ApiKeyScope } from './api-key-scopes.js';

/** A service credential: never a device session, limited to its scopes and to its user's rights. */
export interface ApiKeyCaller {
  user: User;
  session: null;
  apiKey: ApiKeyCredential;
}

export interface ApiKeyCredential {
  id: string;
  name: string;
  scopes: ApiKeyScope[];
  expiresAt: Date | null;
  rateLimitPerMinute: number;
}

declare module '../../context.js' {
  interface CallerKinds {
    apiKey: ApiKeyCaller;
  }
}
