import { act, cleanup, render } from '@testing-library/react';
import { flushSync } from 'react-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useGradualCount } from './useGradualCount';

function Counter({ total, listKey }: { total: number; listKey: string }) {
  const shown = useGradualCount(total, listKey, 2, 2);
  return <output>{shown}</output>;
}

const shown = (container: HTMLElement) => Number(container.querySelector('output')?.textContent);

/** Lets timers and React's scheduled work run until nothing more changes. */
async function settle() {
  for (let i = 0; i < 20; i++) await act(() => new Promise((resolve) => setTimeout(resolve, 5)));
}

afterEach(cleanup);

describe('useGradualCount', () => {
  it('draws the first batch at once, then the rest a step at a time', async () => {
    const { container } = render(<Counter total={7} listKey="a" />);
    expect(shown(container)).toBe(2);
    await settle();
    expect(shown(container)).toBe(7);
  });

  it('starts again from the first batch for a new list, not for a longer one', async () => {
    const { container, rerender } = render(<Counter total={6} listKey="a" />);
    await settle();
    rerender(<Counter total={10} listKey="a" />);
    expect(shown(container)).toBe(6);
    rerender(<Counter total={10} listKey="b" />);
    expect(shown(container)).toBe(2);
    await settle();
    expect(shown(container)).toBe(10);
  });

  it('finishes a new list that replaces one whose next step was already on its way', async () => {
    // The timer of list "a" fires and asks (in a transition) for its next step; before that step is
    // drawn, a search replaces the list with "b", of the same length, drawn from the same first
    // batch. The step's update is then replayed before the reset and lost, and nothing changed
    // that would schedule another: the grid stopped at its first cards.
    const realSetTimeout = globalThis.setTimeout;
    let replaced = false;
    // The hook's timers are the zero-delay ones; the first, once run, is followed at once by the
    // new list, drawn synchronously as typing is.
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((callback: () => void, ms?: number) =>
      realSetTimeout(() => {
        callback();
        if (ms === 0 && !replaced) {
          replaced = true;
          flushSync(() => view.rerender(<Counter total={8} listKey="b" />));
        }
      }, ms)) as typeof setTimeout);
    const view = render(<Counter total={8} listKey="a" />);
    expect(shown(view.container)).toBe(2);
    await settle();
    expect(replaced).toBe(true);
    vi.mocked(globalThis.setTimeout).mockRestore();
    await settle();
    expect(shown(view.container)).toBe(8);
  });
});
