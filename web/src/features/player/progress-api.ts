// Saving where the listener is. Regular saves go through GraphQL like all data; the last one, as
// the page is hidden or closed, must outlive the page, so it is a keepalive fetch to REST with the
// same session headers (sendBeacon cannot carry them).
import { restFetch } from '../../app/rest';

export interface ProgressUpdate {
  fileId: string;
  position: number;
  finished: boolean;
}

export function saveProgressOnExit({ fileId, position, finished }: ProgressUpdate): void {
  void restFetch(`/progress/${encodeURIComponent(fileId)}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ position, finished }),
    keepalive: true,
  }).catch(() => {
    // The page is going away; a lost save costs at most the last ten seconds.
  });
}
