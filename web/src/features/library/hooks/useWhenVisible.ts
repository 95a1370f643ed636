import { useEffect, useRef } from 'react';

/**
 * A ref for an element, and `onVisible` called (with the observer's entry) whenever that element
 * comes within `margin` of the viewport while `enabled`. Observing afresh on every change of
 * `enabled` or `onVisible` also reports an element that is still in view after the page grew.
 */
export function useWhenVisible<E extends Element>(
  onVisible: (entry: IntersectionObserverEntry) => void,
  enabled: boolean,
  margin = '400px',
) {
  const ref = useRef<E>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || !enabled) return;
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries.find((e) => e.isIntersecting);
        if (entry) onVisible(entry);
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [onVisible, enabled, margin]);
  return ref;
}
