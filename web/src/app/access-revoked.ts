// ACCESS_REVOKED arrives on the app-wide security feed; the player of that file must stop at once.
type Listener = (fileId: string | null, message: string) => void;
const listeners = new Set<Listener>();

export function onAccessRevoked(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function announceAccessRevoked(fileId: string | null, message: string): void {
  for (const listener of listeners) listener(fileId, message);
}
