import { useEffect, useState } from 'react';
import { restObjectUrl } from '../../../app/rest';

interface CoverSource {
  id: string;
  coverImageBase64?: string | null;
}

function inlineUrl(base64: string): string {
  // Stored either as a full data URL or as bare base64; browsers sniff the image type.
  return base64.startsWith('data:') ? base64 : `data:image/jpeg;base64,${base64}`;
}

/**
 * The cover to show for a file: its inline copy, else the server's cover fetched with the
 * session headers (an <img src> cannot send them). Null while loading or when there is none.
 */
export function useCoverImage(file: CoverSource): string | null {
  const inline = file.coverImageBase64 ? inlineUrl(file.coverImageBase64) : null;
  const [fetched, setFetched] = useState<{ id: string; url: string } | null>(null);

  useEffect(() => {
    if (inline) return;
    const controller = new AbortController();
    let url: string | null = null;
    restObjectUrl(`/files/cover/${encodeURIComponent(file.id)}`, controller.signal)
      .then((objectUrl) => {
        url = objectUrl;
        if (controller.signal.aborted) URL.revokeObjectURL(objectUrl);
        else setFetched({ id: file.id, url: objectUrl });
      })
      .catch(() => {
        // No cover (404) or unreachable: the card shows its placeholder.
      });
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [file.id, inline]);

  if (inline) return inline;
  return fetched?.id === file.id ? fetched.url : null;
}
