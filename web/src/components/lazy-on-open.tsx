import { lazy, Suspense, useState, type ComponentType } from 'react';
import { loadChunk } from '../app/load-chunk';

/**
 * A dialog, menu or toast whose code loads the first time it opens, so a page that may never open
 * it does not download or run it on its first visit. Once opened it stays mounted, so closing
 * still plays its exit transition. A failed load reaches the route's error page as any page's.
 */
export function lazyOnOpen<P extends { open: boolean }>(load: () => Promise<ComponentType<P>>, name: string) {
  const Loaded = lazy(loadChunk(() => load().then((Component) => ({ default: Component })), name));
  return function OpenedOnce(props: P) {
    const [opened, setOpened] = useState(props.open);
    // Derived from the props of earlier renders: React re-renders at once, before committing.
    if (props.open && !opened) setOpened(true);
    if (!opened) return null;
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  };
}
