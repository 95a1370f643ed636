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
