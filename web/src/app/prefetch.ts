import { takeEarlyCover } from './early-answers';
import { authHeaders } from './request-headers';
import { REST_BASE, restPath } from './rest';
import { getToken } from './stored-session';

/**
 * A page's first query, sent as the page's code loads when the browser was opened at that page
 * with a stored session (page-preload loads that code alongside React), rather than after the
 * session check and the first render. `key` names what was asked for (null: not at this page).
 * Returns `take(key)`: true once, for the first render asking for the same thing, which then
 * reads the answer from the cache (or joins the request still out) instead of asking again.
 * A refused session is left to the session check (the PREFETCH context in apollo.ts).
 */
export function prefetchFirstQuery(
  key: string | null,
  send: (key: string) => Promise<unknown>,
): (key: string) => boolean {
  let pending = key !== null && getToken() !== null ? key : null;
  if (pending !== null) send(pending).catch(() => undefined);
  return (wanted) => {
    const taken = pending === wanted;
    pending = null;
    return taken;
  };
}

const covers = new Map<string, Promise<Blob>>();

/**
 * Starts fetching a cover the first screen shows as soon as its address is known (the page's first
 * query answered), rather than once the card or the player has been drawn and asks for it: the
 * cover is the page's largest picture, and drawing the page first costs a slow phone a second.
 * Taken once by takePrefetchedCover. Like PREFETCH, a refusal here ends no session: the cover is
 * then asked for again the ordinary way, which applies the forced-logout rules.
 */
export function prefetchCover(url: string | null | undefined): void {
  if (!url || covers.has(url)) return;
  // page-preload.js may have asked for it already (early-answers.ts).
  const request =
    takeEarlyCover(url) ??
    fetch(`${REST_BASE}${restPath(url)}`, { headers: authHeaders(), credentials: 'include' }).then((response) =>
      response.ok ? response.blob() : Promise.reject(new Error(`HTTP ${response.status}`)),
    );
  request.catch(() => undefined); // handled where it is taken
  covers.set(url, request);
}

/** Whether a cover was prefetched and not yet taken. */
export const isCoverPrefetched = (url: string): boolean => covers.has(url);

/** The prefetched request for the cover at `url`, once; undefined when there was none. */
export function takePrefetchedCover(url: string): Promise<Blob> | undefined {
  const request = covers.get(url);
  covers.delete(url);
  return request;
}
