import { useEffect, useState } from 'react';
import { isCoverPrefetched, takePrefetchedCover } from '../../../app/prefetch';
import { restBlob, restPath } from '../../../app/rest';
import { useObjectUrl } from '../../../components/useObjectUrl';

/** One cover's request, shared by every card showing that cover while any of them is on the page. */
interface Shared {
  blob: Promise<Blob>;
  controller: AbortController;
  holders: number;
}

const shared = new Map<string, Shared>();

function hold(url: string): Shared {
  let entry = shared.get(url);
  if (!entry) {
    const controller = new AbortController();
    const load = () => restBlob(restPath(url), controller.signal);
    const blob = takePrefetchedCover(url)?.catch(load) ?? load();
    blob.catch(() => undefined); // each holder handles it
    entry = { blob, controller, holders: 0 };
    shared.set(url, entry);
  }
  entry.holders++;
  return entry;
}

/**
 * Lets go of a cover. The last holder's release waits a task, so that a card drawn again at once
 * (a shelf and the grid showing the same file, React's development double mount) keeps the answer
 * rather than asking again; after that the request is dropped, and a later card asks anew.
 */
function release(url: string, entry: Shared): void {
  entry.holders--;
  setTimeout(() => {
    if (entry.holders > 0 || shared.get(url) !== entry) return;
    shared.delete(url);
    entry.controller.abort();
  }, 0);
}

/** Whether the cover at `url` is already fetched or on its way (prefetched, or held by another card). */
export const isCoverInHand = (url: string): boolean => shared.has(url) || isCoverPrefetched(url);

/**
 * The cover at `url` (a file's coverUrl or coverThumbnailUrl), fetched with the session headers
 * that an <img src> cannot send, as an object URL. Null while loading, when the request fails, and
 * without asking the server at all when the file has no cover (a null URL). Cards showing the same
 * cover at the same time (the "Recently added" shelf and the grid below, often) share one request.
 * The browser keeps the bytes in its private cache and revalidates them (ETag), so a card seen
 * again later costs a 304. A cover the page prefetched (app/prefetch.ts) is taken from that
 * request, or asked for again if it failed.
 */
export function useCoverImage(url: string | null): string | null {
  const [fetched, setFetched] = useState<{ url: string; blob: Blob } | null>(null);

  useEffect(() => {
    if (!url) return;
    const entry = hold(url);
    let live = true;
    entry.blob
      .then((blob) => {
        if (live) setFetched({ url, blob });
      })
      .catch(() => {
        // Gone meanwhile, unreachable or aborted: the placeholder stays.
      });
    return () => {
      live = false;
      release(url, entry);
    };
  }, [url]);

  return useObjectUrl(url && fetched?.url === url ? fetched.blob : null);
}
