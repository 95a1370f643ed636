// The spec's client-side blocks (section 9). They deter casual copying; the real protection is
// that bytes only reach a signed-in, permitted session.

/** No download, fullscreen, remote playback or picture-in-picture on a media element. */
export function protectMediaElement(element: HTMLMediaElement): void {
  element.setAttribute('controlsList', 'nodownload nofullscreen noremoteplayback');
  element.setAttribute('disablePictureInPicture', '');
  element.setAttribute('disableRemotePlayback', '');
  element.disableRemotePlayback = true;
}

function blockedShortcut(e: KeyboardEvent): boolean {
  const key = e.key.toUpperCase();
  if (key === 'F12' || key === 'F11') return true;
  const ctrl = e.ctrlKey || e.metaKey;
  if (ctrl && e.shiftKey && ['I', 'J', 'C'].includes(key)) return true;
  return ctrl && !e.shiftKey && ['U', 'S', 'P'].includes(key);
}

/** Form fields keep selection, copy and paste: people must be able to edit what they type. */
function inField(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || !!target.closest('input, textarea, select'));
}

/**
 * Installs the blocks on the document for every signed-in page (SignedInLayout); returns the function
 * that removes them.
 */
export function installContentProtection(): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (blockedShortcut(e)) e.preventDefault();
  };
  const block = (e: Event) => {
    if (!inField(e.target)) e.preventDefault();
  };
  const leavePip = () => {
    if (document.pictureInPictureElement) void document.exitPictureInPicture();
  };
  const blocked = ['contextmenu', 'selectstart', 'dragstart', 'copy'] as const;
  document.addEventListener('keydown', onKey, true);
  for (const type of blocked) document.addEventListener(type, block, true);
  document.addEventListener('enterpictureinpicture', leavePip, true);
  return () => {
    document.removeEventListener('keydown', onKey, true);
    for (const type of blocked) document.removeEventListener(type, block, true);
    document.removeEventListener('enterpictureinpicture', leavePip, true);
  };
}
