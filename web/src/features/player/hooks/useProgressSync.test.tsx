import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import { ApolloProvider } from '@apollo/client/react';
import { cleanup, render } from '@testing-library/react';
import { useRef, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useProgressSync } from './useProgressSync';

// The hook's boundaries are faked: the GraphQL endpoint and the keepalive REST save (both fetch),
// and the media element's events. `saves` is every position the server was sent, in order.

interface Save {
  via: 'graphql' | 'rest';
  position: number;
  finished: boolean;
}
let saves: Save[];

async function fakeFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const body = JSON.parse(String(init.body)) as Record<string, unknown>;
  if (String(input).includes('/graphql')) {
    const { input: progress } = body.variables as { input: { position: number; finished: boolean } };
    saves.push({ via: 'graphql', ...progress });
    const answer = { saveProgress: { __typename: 'ListeningProgress', fileId: 'f1', ...progress } };
    return new Response(JSON.stringify({ data: answer }), { headers: { 'content-type': 'application/json' } });
  }
  saves.push({ via: 'rest', position: body.position as number, finished: body.finished as boolean });
  return new Response(JSON.stringify({ success: true }), { headers: { 'content-type': 'application/json' } });
}

function Listener({ position, duration, finished }: { position: number; duration: number; finished: boolean }) {
  const audioRef = useRef<HTMLAudioElement | null>(null);
  useProgressSync(audioRef, { fileId: 'f1', loadKey: 1, position, duration, finished });
  return <audio data-testid="audio" ref={audioRef} src="/api/v1/drm/stream/tok1" />;
}

function show() {
  const client = new ApolloClient({
    link: new HttpLink({ uri: 'http://localhost/graphql', fetch: fakeFetch }),
    cache: new InMemoryCache(),
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <ApolloProvider client={client}>{children}</ApolloProvider>
  );
  const view = render(<Listener position={30} duration={120} finished={false} />, { wrapper });
  const audio = view.getByTestId('audio') as HTMLAudioElement;
  const fire = (type: string) => audio.dispatchEvent(new Event(type));
  return {
    ...view,
    audio,
    fire,
    at: (position: number, finished = false) =>
      view.rerender(<Listener position={position} duration={120} finished={finished} />),
  };
}

/** Lets the saves under way reach the fake server (Apollo sends on a later tick). */
const settled = () => new Promise((resolve) => setTimeout(resolve, 50));

function hidePage() {
  Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
}

beforeEach(() => {
  saves = [];
  localStorage.setItem('token', 'signed-in');
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
});
afterEach(() => {
  cleanup();
  localStorage.clear();
  Reflect.deleteProperty(document, 'visibilityState');
});

describe('useProgressSync', () => {
  it('saves nothing for a file that was only opened', async () => {
    const { fire, unmount } = show();
    fire('pause');
    hidePage();
    unmount();
    await settled();
    expect(saves).toEqual([]);
  });

  it('saves the position on pause and as the page is hidden', async () => {
    const { fire, at } = show();
    fire('play');
    at(42);
    fire('pause');
    hidePage();
    await settled();
    expect(saves).toEqual([
      { via: 'graphql', position: 42, finished: false },
      { via: 'rest', position: 42, finished: false },
    ]);
  });

  it('keeps a finished file finished: no later save overwrites it with an unfinished position', async () => {
    const { fire, at, unmount } = show();
    fire('play');
    at(120);
    fire('ended');
    // What follows the end: the position falls back to the start, the page is hidden, another file opens.
    at(0);
    hidePage();
    unmount();
    await settled();
    expect(saves).toEqual([{ via: 'graphql', position: 120, finished: true }]);
  });

  it('saves again once a finished file is played again', async () => {
    const { fire, at } = show();
    fire('play');
    at(120);
    fire('ended');
    fire('play');
    at(8);
    fire('pause');
    await settled();
    expect(saves[1]).toEqual({ via: 'graphql', position: 8, finished: false });
  });

  it('saves no unfinished position over a file marked finished while it played', async () => {
    const { fire, at, unmount } = show();
    fire('play');
    at(50);
    // The listener marks it finished (the mark itself goes to the server on its own): the pause
    // that follows, hiding the page and leaving it keep quiet.
    at(50, true);
    fire('pause');
    hidePage();
    unmount();
    await settled();
    expect(saves).toEqual([]);
  });
});
