// Plain HTTP for bytes (covers, uploads, streams); everything else goes through GraphQL.
import { forceLogout, forcedLogoutMessageFor } from './forced-logout';
import { authHeaders } from './request-headers';
import { getToken } from './stored-session';

export const REST_BASE = '/api/v1';

/** Error of a REST call, with the server's message when it sent one. */
export class RestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'RestError';
  }
}

interface ErrorBody {
  message?: string;
  error?: { code?: string; message?: string };
}

async function readError(response: Response): Promise<RestError> {
  let body: ErrorBody = {};
  try {
    body = (await response.clone().json()) as ErrorBody;
  } catch {
    // Not JSON (a proxy page, an empty body): the status alone has to do.
  }
  const message = body.error?.message || body.message || response.statusText || `HTTP ${response.status}`;
  return new RestError(response.status, message, body.error?.code);
}

/** fetch() against /api/v1 with the session headers; applies the forced-logout rules. */
export async function restFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(authHeaders())) headers.set(name, value);
  const response = await fetch(`${REST_BASE}${path}`, { ...init, headers, credentials: 'include' });
  if ((response.status === 401 || response.status === 403) && getToken()) {
    const error = await readError(response);
    const message = forcedLogoutMessageFor(response.status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN', error.message);
    if (message) forceLogout(message);
    else console.warn('Insufficient permissions:', error.message);
  }
  return response;
}

/** Like restFetch, but rejects with a RestError outside 200-299. */
export async function restRequest(path: string, init?: RequestInit): Promise<Response> {
  const response = await restFetch(path, init);
  if (!response.ok) throw await readError(response);
  return response;
}

/** A binary resource as an object URL; the caller revokes it. */
export async function restObjectUrl(path: string, signal?: AbortSignal): Promise<string> {
  const response = await restRequest(path, { signal });
  return URL.createObjectURL(await response.blob());
}
