import { useEffect, useState } from 'react';
import { takePrefetchedCover } from '../../../app/prefetch';
import { restBlob, restPath } from '../../../app/rest';
import { useObjectUrl } from '../../../components/useObjectUrl';

/**
 * The cover at `url` (a file's coverUrl or coverThumbnailUrl), fetched with the session headers
 * that an <img src> cannot send, as an object URL. Null while loading, when the request fails, and
 * without asking the server at all when the file has no cover (a null URL). The browser keeps the
 * bytes in its private cache and revalidates them (ETag), so a card seen again costs a 304. A cover
 * the page prefetched (app/prefetch.ts) is taken from that request, or asked for again if it failed.
 */
export function useCoverImage(url: string | null): string | null {
  const [fetched, setFetched] = useState<{ url: string; blob: Blob } | null>(null);

  useEffect(() => {
    if (!url) return;
    const controller = new AbortController();
    const load = () => restBlob(restPath(url), controller.signal);
    (takePrefetchedCover(url)?.catch(load) ?? load())
      .then((blob) => {
        if (!controller.signal.aborted) setFetched({ url, blob });
      })
      .catch(() => {
        // Gone meanwhile, unreachable or aborted: the placeholder stays.
      });
    return () => controller.abort();
  }, [url]);

  return useObjectUrl(url && fetched?.url === url ? fetched.blob : null);
}
