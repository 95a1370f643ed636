// The GraphQL operations the stages send, as the web app writes them (web/src/features/**/*.graphql).

export const LIBRARY_QUERY = `query AudioFiles($search: String, $offset: Int, $limit: Int) {
  audioFiles(search: $search, offset: $offset, limit: $limit) {
    total
    items { id title description filename size duration mimeType isPublic createdAt coverImagePath coverImageBase64 }
  }
}`;

export const ADMIN_USERS_QUERY = `query AdminUsers($search: String, $offset: Int!, $limit: Int!) {
  adminUsers(search: $search, offset: $offset, limit: $limit) {
    total
    items { id name email role isAdmin isLocked lockUntil sessionCount hasMultipleSessions createdAt }
  }
}`;

export const FILE_DETAIL_QUERY = `query AudioFile($id: ID!) {
  audioFile(id: $id) {
    id title description duration mimeType isPublic coverImagePath coverImageBase64
    chapters { id label startTime endTime status }
  }
}`;

export const LOGIN_MUTATION = `mutation Login($input: LoginInput!) {
  login(input: $input) { success message requiresDeviceApproval token user { id } deviceSession { id } }
}`;

export const TERMINATE_MUTATION = `mutation AdminTerminateSession($userId: ID!, $sessionId: ID!) {
  terminateUserSession(userId: $userId, sessionId: $sessionId)
}`;

export const SECURITY_EVENTS_SUBSCRIPTION = 'subscription { securityEvents { type message fileId } }';

/** Headers of a signed-in request from `who` ({ token, deviceId }). */
export function authHeaders(who) {
  return { authorization: `Bearer ${who.token}`, 'x-device-id': who.deviceId };
}

/** POSTs one GraphQL operation; resolves { status, body } without throwing on GraphQL errors. */
export async function gql(url, query, variables, who) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(who ? authHeaders(who) : {}) },
    body: JSON.stringify({ query, variables }),
    signal: globalThis.AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = { errors: [{ message: text.slice(0, 200) }] };
  }
  return { status: res.status, body };
}
