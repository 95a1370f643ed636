import { endRefusedSession, refusalCode } from '../../../app/forced-logout';
import { REST_BASE, RestError } from '../../../app/rest';
import { authHeaders } from '../../../app/request-headers';
import { getToken } from '../../../app/stored-session';

interface XhrOptions {
  method: 'POST' | 'PUT';
  path: string;
  body: FormData | Blob;
  headers?: Record<string, string>;
  /** 0: no timeout. */
  timeoutMs?: number;
  onProgress?: (sentBytes: number, totalBytes: number) => void;
  signal?: AbortSignal;
}

interface RestBody {
  data?: unknown;
  message?: string;
  error?: { code?: string; message?: string };
}

/**
 * A REST call through XMLHttpRequest, the one browser API that reports upload progress.
 * Same headers and forced-logout rules as restFetch; resolves with the parsed body on 2xx.
 */
export function xhrRequest({
  method,
  path,
  body,
  headers = {},
  timeoutMs = 0,
  onProgress,
  signal,
}: XhrOptions): Promise<RestBody> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('Aborted', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open(method, `${REST_BASE}${path}`);
    xhr.withCredentials = true;
    xhr.timeout = timeoutMs;
    for (const [name, value] of Object.entries({ ...authHeaders(), ...headers })) xhr.setRequestHeader(name, value);
    if (onProgress) xhr.upload.onprogress = (event) => onProgress(event.loaded, event.total);
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal?.removeEventListener('abort', onAbort);

    xhr.onload = () => {
      settle();
      let parsed: RestBody = {};
      try {
        parsed = JSON.parse(xhr.responseText) as RestBody;
      } catch {
        // Not JSON: the status decides alone.
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(parsed);
        return;
      }
      const message = parsed.error?.message || parsed.message || xhr.statusText || `HTTP ${xhr.status}`;
      const refusal = refusalCode(xhr.status);
      if (refusal && getToken()) endRefusedSession(refusal, message);
      reject(new RestError(xhr.status, message, parsed.error?.code));
    };
    xhr.onerror = () => {
      settle();
      reject(new Error('Network error'));
    };
    xhr.ontimeout = () => {
      settle();
      reject(new Error('Request timed out'));
    };
    xhr.onabort = () => {
      settle();
      reject(new DOMException('Aborted', 'AbortError'));
    };
    xhr.send(body);
  });
}
