import { useEffect, useEffectEvent } from 'react';
import type { PlayerContextValue } from '../player-context';

/** Keys typed into a field, or pressed on a control that answers them itself, are left alone. */
function handledElsewhere(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.closest('input, textarea, select, [contenteditable="true"], [role="dialog"], [role="menu"]')) return true;
  // A focused slider moves itself with the arrows; a focused button or link answers Space.
  if (key.startsWith('Arrow') && target.closest('[role="slider"]')) return true;
  return key === ' ' && !!target.closest('button, a, [role="button"], [role="slider"]');
}

/**
 * The full player's keyboard: Space/K play-pause, arrows jump by the chosen lengths (Shift: chapters), [ and ] speed,
 * M mute, ? help. Active while the player page is open.
 */
export function usePlayerShortcuts(player: PlayerContextValue, showHelp: () => void) {
  // One listener while the page is open; it reads the player as it is at the key press (skips
  // start from the current position, which changes with every tick of the clock).
  const onKey = useEffectEvent((e: KeyboardEvent) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    if (handledElsewhere(e.target, e.key)) return;
    const { playback, jumpBack, jumpForward, previousChapter, nextChapter, stepRate, toggleMute } = player;
    const actions: Record<string, () => void> = {
      ' ': playback.togglePlay,
      k: playback.togglePlay,
      ArrowLeft: () => (e.shiftKey ? previousChapter() : jumpBack()),
      ArrowRight: () => (e.shiftKey ? nextChapter() : jumpForward()),
      '[': () => stepRate(-1),
      ']': () => stepRate(1),
      m: toggleMute,
      '?': showHelp,
    };
    const action = actions[e.key.length === 1 ? e.key.toLowerCase() : e.key];
    if (!action) return;
    e.preventDefault();
    action();
  });
  useEffect(() => {
    const listener = (e: KeyboardEvent) => onKey(e);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);
}
