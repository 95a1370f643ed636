import { useEffect, useState } from 'react';
import { REST_BASE, restObjectUrl } from '../../../app/rest';

/**
 * The cover at `url` (a file's coverUrl or coverThumbnailUrl), fetched with the session headers
 * that an <img src> cannot send, as an object URL. Null while loading, when the request fails, and
 * without asking the server at all when the file has no cover (a null URL). The browser keeps the
 * bytes in its private cache and revalidates them (ETag), so a card seen again costs a 304.
 */
export function useCoverImage(url: string | null): string | null {
  const [fetched, setFetched] = useState<{ url: string; objectUrl: string } | null>(null);

  useEffect(() => {
    if (!url) return;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    // The API names covers by their full path; restObjectUrl adds the REST base itself.
    restObjectUrl(url.startsWith(REST_BASE) ? url.slice(REST_BASE.length) : url, controller.signal)
      .then((created) => {
        objectUrl = created;
        if (controller.signal.aborted) URL.revokeObjectURL(created);
        else setFetched({ url, objectUrl: created });
      })
      .catch(() => {
        // Gone meanwhile or unreachable: the placeholder stays.
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);

  return url && fetched?.url === url ? fetched.objectUrl : null;
}
