// Answers page-preload.js asked for before the app's code arrived (web/build/page-preload.ts).
// With a stored session, that small script sends the first screen's GraphQL requests, byte for
// byte as the app would send them, and the cover the screen shows first, while React, MUI and
// Apollo are still downloading. Apollo's HTTP link, requestGraphql (`me`) and the cover prefetch
// take those answers here, once each, instead of asking again.
import { getToken } from './stored-session';

/** A GraphQL answer as page-preload.js keeps it: its body read, so the script can look inside. */
interface EarlyAnswer {
  status: number;
  headers: [string, string][];
  body: string;
}

/** What page-preload.js leaves on `window.__palEarly`. */
interface Early {
  /** When the requests were sent (Date.now()); old ones are not taken. */
  at: number;
  /** The session they were sent with. */
  token: string;
  graphql: { key: string; answer: Promise<EarlyAnswer> }[];
  covers: Map<string, Promise<Blob>>;
}

declare global {
  interface Window {
    __palEarly?: Early;
  }
}

/** Answers older than this are left alone: the page they were for has long been drawn. */
const MAX_AGE_MS = 30_000;

/** JSON with the keys of every object sorted, so equal values read the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Which request an answer is for: the operation and its variables (the build and the app agree). */
export const requestKey = (operationName: string, variables: unknown): string =>
  `${operationName} ${canonicalJson(variables ?? {})}`;

function early(): Early | undefined {
  const found = typeof window === 'undefined' ? undefined : window.__palEarly;
  if (!found || Date.now() - found.at > MAX_AGE_MS || found.token !== getToken()) return undefined;
  return found;
}

/** The answer page-preload.js got for `operationName` with `variables`, once; else undefined. */
export function takeEarlyAnswerTo(operationName: string, variables: unknown): Promise<Response> | undefined {
  const waiting = early()?.graphql;
  const key = requestKey(operationName, variables);
  const at = waiting?.findIndex((entry) => entry.key === key) ?? -1;
  if (!waiting || at < 0) return undefined;
  const [entry] = waiting.splice(at, 1);
  return entry.answer.then(({ status, headers, body }) => new Response(body, { status, headers }));
}

/**
 * For Apollo's HTTP link: the answer page-preload.js got for a request with this body (the same
 * operation and variables), once; undefined when there is none and the request must be sent.
 */
export function takeEarlyAnswer(body: unknown): Promise<Response> | undefined {
  if (typeof body !== 'string' || !early()?.graphql.length) return undefined;
  let request: { operationName?: unknown; variables?: unknown };
  try {
    request = JSON.parse(body) as typeof request;
  } catch {
    return undefined;
  }
  return typeof request.operationName === 'string'
    ? takeEarlyAnswerTo(request.operationName, request.variables)
    : undefined;
}

/** The cover at `url` if page-preload.js already asked for it, once. */
export function takeEarlyCover(url: string): Promise<Blob> | undefined {
  const covers = early()?.covers;
  const cover = covers?.get(url);
  if (cover) covers?.delete(url);
  return cover;
}
