// Plain HTTP for bytes (covers, uploads, streams); everything else goes through GraphQL.
import { endRefusedSession, refusalCode } from './forced-logout';
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
  const refusal = refusalCode(response.status);
  if (refusal && getToken()) endRefusedSession(refusal, (await readError(response)).message);
  return response;
}

/** Like restFetch, but rejects with a RestError outside 200-299. */
export async function restRequest(path: string, init?: RequestInit): Promise<Response> {
  const response = await restFetch(path, init);
  if (!response.ok) throw await readError(response);
  return response;
}

/** The path under REST_BASE of a resource the API names by its full path (a cover's URL). */
export const restPath = (url: string): string => (url.startsWith(REST_BASE) ? url.slice(REST_BASE.length) : url);

/** A binary resource's bytes (a cover), fetched with the session headers. */
export async function restBlob(path: string, signal?: AbortSignal): Promise<Blob> {
  const response = await restRequest(path, { signal });
  return response.blob();
}
