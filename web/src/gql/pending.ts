// Hand-written stand-in for codegen output until /work/main/schema.graphql exists.
// Names match what typed-document-node will generate, so switching is an import change;
// delete this file once `npm run codegen` writes web/src/gql/.
import type { TypedDocumentNode } from '@apollo/client';
import { Kind, parse, visit, type DefinitionNode, type FragmentDefinitionNode } from 'graphql';
import authSource from '../features/auth/auth.graphql?raw';
import librarySource from '../features/library/library.graphql?raw';

export type UserRole = 'admin' | 'user';

export interface SessionUserFragment {
  __typename?: 'User';
  id: string;
  name: string;
  email: string;
  role: UserRole;
  isAdmin: boolean;
  isLocked: boolean;
  lockUntil?: string | null;
  createdAt: string;
  avatarUrl?: string | null;
  sessionCount: number;
  hasMultipleSessions: boolean;
}

export interface SessionDeviceFragment {
  __typename?: 'DeviceSession';
  id: string;
  deviceId: string;
  deviceName: string;
  deviceType: string;
  ipAddress?: string | null;
  lastActivity: string;
  createdAt: string;
  isCurrent: boolean;
}

export interface DeviceDataInput {
  deviceId: string;
  deviceFingerprint?: string | null;
  deviceName?: string | null;
  timezone?: string | null;
  language?: string | null;
  platform?: string | null;
  cookieEnabled?: boolean | null;
  doNotTrack?: string | null;
  browser?: string | null;
  os?: string | null;
  deviceType?: string | null;
}

export interface LoginInput {
  email: string;
  password: string;
  deviceApproved?: boolean | null;
  deviceData: DeviceDataInput;
}

export interface RegisterInput {
  name: string;
  email: string;
  password: string;
  deviceData: DeviceDataInput;
}

export type MeQuery = { me: SessionUserFragment };
export type MeQueryVariables = Record<string, never>;

export type LoginMutation = {
  login: {
    success: boolean;
    message?: string | null;
    requiresDeviceApproval: boolean;
    token?: string | null;
    user?: SessionUserFragment | null;
    deviceSession?: SessionDeviceFragment | null;
    warnings: Array<{
      id?: string | null;
      type: string;
      message: string;
      deviceName?: string | null;
      timestamp?: string | null;
    }>;
  };
};
export type LoginMutationVariables = { input: LoginInput };

export type RegisterMutation = {
  register: { token: string; user: SessionUserFragment; deviceSession?: SessionDeviceFragment | null };
};
export type RegisterMutationVariables = { input: RegisterInput };

export type LogoutMutation = { logout: boolean };
export type LogoutMutationVariables = Record<string, never>;

export type SecurityEventType = 'FORCED_LOGOUT' | 'DEVICE_LOCKED' | 'SESSION_TERMINATED' | 'ACCESS_REVOKED';
export type SecurityEventsSubscription = {
  securityEvents: { type: SecurityEventType; message?: string | null; fileId?: string | null; at: string };
};
export type SecurityEventsSubscriptionVariables = Record<string, never>;

export type AudioFilesQuery = {
  audioFiles: {
    total: number;
    items: Array<{
      id: string;
      title: string;
      description?: string | null;
      filename: string;
      size: number;
      duration: number;
      mimeType: string;
      isPublic: boolean;
      createdAt: string;
      coverImagePath?: string | null;
      coverImageBase64?: string | null;
    }>;
  };
};
export type AudioFilesQueryVariables = { search?: string | null; offset?: number | null; limit?: number | null };

/** One operation from a .graphql file plus the fragments it spreads (unused ones fail validation). */
function operation<TData, TVariables>(source: string, name: string): TypedDocumentNode<TData, TVariables> {
  const all = parse(source).definitions;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of all) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const op = all.find((d) => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === name);
  if (!op) throw new Error(`Operation ${name} not found`);

  const picked: DefinitionNode[] = [op];
  const seen = new Set<string>();
  const collect = (node: DefinitionNode) =>
    visit(node, {
      FragmentSpread(spread) {
        const fragment = fragments.get(spread.name.value);
        if (!fragment || seen.has(fragment.name.value)) return;
        seen.add(fragment.name.value);
        picked.push(fragment);
        collect(fragment);
      },
    });
  collect(op);
  const document: TypedDocumentNode<TData, TVariables> = { kind: Kind.DOCUMENT, definitions: picked };
  return document;
}

export const MeDocument = operation<MeQuery, MeQueryVariables>(authSource, 'Me');
export const LoginDocument = operation<LoginMutation, LoginMutationVariables>(authSource, 'Login');
export const RegisterDocument = operation<RegisterMutation, RegisterMutationVariables>(authSource, 'Register');
export const LogoutDocument = operation<LogoutMutation, LogoutMutationVariables>(authSource, 'Logout');
export const SecurityEventsDocument = operation<SecurityEventsSubscription, SecurityEventsSubscriptionVariables>(
  authSource,
  'SecurityEvents',
);
export const AudioFilesDocument = operation<AudioFilesQuery, AudioFilesQueryVariables>(librarySource, 'AudioFiles');
