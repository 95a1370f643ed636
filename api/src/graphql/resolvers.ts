import type { NonEmptyArray } from 'type-graphql';
import { AuditResolver } from '../features/audit/audit.resolver.js';
import { AuthResolver, DeviceSessionResolver, UserFieldsResolver } from '../features/auth/auth.resolver.js';
import { UserSessionsResolver } from '../features/users/user-sessions.resolver.js';

/** Every resolver of the schema; a feature adds its own here. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const resolvers: NonEmptyArray<Function> = [
  AuthResolver,
  DeviceSessionResolver,
  UserFieldsResolver,
  UserSessionsResolver,
  AuditResolver,
];
