import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSecurePlayback, type PlaybackSource } from './useSecurePlayback';

// The hook's boundaries are faked, nothing inside it: the REST calls (fetch) and the media element's
// playback (play, pause, load, errors, time). `server` is what the API answers.

interface Server {
  sessions: string[];
  /** Status answers for the next session POSTs, in order; then 200. */
  sessionStatuses: number[];
  /** What a HEAD of the stream answers. */
  headStatus: number;
  signedUrlStatus: number;
  /** While set, signed URLs are held back until it resolves (a slow network). */
  signedUrlGate: Promise<void> | null;
  calls: { method: string; path: string; body: unknown }[];
}
let server: Server;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

async function fakeFetch(input: string, init: RequestInit = {}): Promise<Response> {
  const path = input.replace(/^\/api\/v1/, '');
  const method = init.method ?? 'GET';
  server.calls.push({ method, path, body: init.body ? JSON.parse(String(init.body)) : undefined });
  if (method === 'POST' && path.startsWith('/drm/session/')) {
    const status = server.sessionStatuses.shift() ?? 200;
    if (status !== 200) return json(status, { success: false, message: `refused ${status}` });
    const token = `tok${server.sessions.length + 1}`;
    server.sessions.push(token);
    return json(200, { success: true, data: { sessionToken: token, duration: 120 } });
  }
  if (method === 'HEAD' && path.startsWith('/drm/stream/')) return new Response(null, { status: server.headStatus });
  if (method === 'POST' && path.startsWith('/drm/signed-url/')) {
    if (server.signedUrlGate) await server.signedUrlGate;
    if (server.signedUrlStatus !== 200) return json(server.signedUrlStatus, { success: false, message: 'no' });
    const { startTime } = JSON.parse(String(init.body)) as { startTime: number };
    return json(200, { success: true, data: { signedUrl: `/api/v1/drm/signed/f1?start=${startTime}` } });
  }
  return json(404, { success: false, message: 'unknown route' });
}

/** The element's playback, driven by the test: what a browser would do after src, play or pause. */
function fakeMedia(audio: HTMLAudioElement) {
  let time = 0;
  let paused = true;
  let error: { code: number; message: string } | null = null;
  Object.defineProperties(audio, {
    currentTime: { get: () => time, set: (v: number) => (time = v), configurable: true },
    paused: { get: () => paused, configurable: true },
    error: { get: () => error, configurable: true },
    readyState: { get: () => (audio.getAttribute('src') ? 1 : 0), configurable: true },
  });
  audio.play = vi.fn(async () => {
    paused = false;
    audio.dispatchEvent(new Event('play'));
  });
  audio.pause = vi.fn(() => {
    if (paused) return;
    paused = true;
    audio.dispatchEvent(new Event('pause'));
  });
  audio.load = vi.fn();
  return {
    tick(seconds: number) {
      time = seconds;
      audio.dispatchEvent(new Event('timeupdate'));
    },
    metadata() {
      time = 0;
      audio.dispatchEvent(new Event('loadedmetadata'));
    },
    fail(code: number) {
      error = { code, message: code === 2 ? 'network' : 'not supported' };
      paused = true;
      audio.dispatchEvent(new Event('error'));
    },
  };
}

let media: ReturnType<typeof fakeMedia> | null = null;

/** A page showing what the player shows: status, error, clock; buttons for the controls. */
function Player({ source }: { source: PlaybackSource | null }) {
  const { audioRef, ...p } = useSecurePlayback(source);
  return (
    <div>
      <audio data-testid="audio" ref={audioRef} />
      <p data-testid="status">{p.status}</p>
      <p data-testid="playing">{p.playing ? 'streaming' : 'paused'}</p>
      <p data-testid="position">{p.position}</p>
      <p role="alert">{p.error}</p>
      <button onClick={p.togglePlay}>toggle</button>
      <button onClick={() => void p.seek(500)}>seek past end</button>
      <button onClick={() => void p.seek(60, { resume: false })}>skip to 60</button>
    </div>
  );
}

/** Renders the player and drives its element's playback from the test. */
function show(source: PlaybackSource | null) {
  const rendered = render(<Player source={source} />);
  media = fakeMedia(screen.getByTestId('audio') as HTMLAudioElement);
  return rendered;
}

const FILE: PlaybackSource = { id: 'f1', duration: 120, startAt: 0, loadKey: 1 };
const text = (id: string) => screen.getByTestId(id).textContent;
const audioSrc = () => screen.getByTestId('audio').getAttribute('src');

beforeEach(() => {
  server = {
    sessions: [],
    sessionStatuses: [],
    headStatus: 200,
    signedUrlStatus: 200,
    signedUrlGate: null,
    calls: [],
  };
  media = null;
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
});
afterEach(() => {
  cleanup();
});

describe('useSecurePlayback', () => {
  it('goes from loading to ready with a stream session, then streams and follows the clock', async () => {
    show(FILE);
    expect(text('status')).toBe('initializing');
    await waitFor(() => expect(text('status')).toBe('ready'));
    expect(audioSrc()).toBe('/api/v1/drm/stream/tok1');

    fireEvent.click(screen.getByText('toggle'));
    await waitFor(() => expect(text('playing')).toBe('streaming'));
    act(() => media?.tick(5));
    expect(text('position')).toBe('5');
    fireEvent.click(screen.getByText('toggle'));
    expect(text('playing')).toBe('paused');
  });

  it('starts a file at its saved position once the stream has loaded', async () => {
    show({ ...FILE, startAt: 42 });
    expect(text('position')).toBe('42');
    await waitFor(() => expect(text('status')).toBe('ready'));
    act(() => media?.metadata());
    expect((screen.getByTestId('audio') as HTMLAudioElement).currentTime).toBe(42);
  });

  it('shows the spec text for a refused session', async () => {
    server.sessionStatuses = [403];
    const { unmount } = show(FILE);
    await waitFor(() => expect(text('status')).toBe('error'));
    expect(screen.getByRole('alert').textContent).toBe(
      'Access denied. You do not have permission to access this file.',
    );
    unmount();
  });

  it('on a code-4 error checks the stream with HEAD and, on 403, opens a new session where it was', async () => {
    show(FILE);
    await waitFor(() => expect(text('status')).toBe('ready'));
    act(() => media?.tick(30));
    server.headStatus = 403;
    act(() => media?.fail(4));
    await waitFor(() => expect(audioSrc()).toBe('/api/v1/drm/stream/tok2'));
    expect(server.calls.some((c) => c.method === 'HEAD' && c.path === '/drm/stream/tok1')).toBe(true);
    act(() => media?.metadata());
    expect((screen.getByTestId('audio') as HTMLAudioElement).currentTime).toBe(30);
    expect(screen.getByRole('alert').textContent).toBe('');
  });

  it('on a code-2 error mid-play re-opens the session and plays on', async () => {
    show(FILE);
    await waitFor(() => expect(text('status')).toBe('ready'));
    fireEvent.click(screen.getByText('toggle'));
    await waitFor(() => expect(text('playing')).toBe('streaming'));
    act(() => media?.tick(50));
    server.headStatus = 403;
    act(() => media?.fail(2));
    await waitFor(() => expect(audioSrc()).toBe('/api/v1/drm/stream/tok2'));
    await waitFor(() => expect(text('playing')).toBe('streaming'));
    act(() => media?.metadata());
    expect((screen.getByTestId('audio') as HTMLAudioElement).currentTime).toBe(50);
  });

  it('reports a load failure when the stream is still valid', async () => {
    show(FILE);
    await waitFor(() => expect(text('status')).toBe('ready'));
    act(() => media?.fail(4));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Audio loading failed: not supported'));
    expect(server.sessions).toEqual(['tok1']);
  });

  it('seeks through a signed URL, clamps the end to just before it, and falls back to the stream', async () => {
    show(FILE);
    await waitFor(() => expect(text('status')).toBe('ready'));
    fireEvent.click(screen.getByText('seek past end'));
    await waitFor(() => expect(audioSrc()).toBe('/api/v1/drm/signed/f1?start=119.5'));
    expect(server.calls.find((c) => c.path === '/drm/signed-url/f1')?.body).toMatchObject({
      startTime: 119.5,
      endTime: -1,
      expiresIn: 1_800_000,
    });

    server.signedUrlStatus = 500;
    fireEvent.click(screen.getByText('skip to 60'));
    await waitFor(() => expect(audioSrc()).toBe('/api/v1/drm/stream/tok1'));
    act(() => media?.metadata());
    expect((screen.getByTestId('audio') as HTMLAudioElement).currentTime).toBe(60);
    // It was playing since the first seek: a skip keeps it playing.
    expect(text('playing')).toBe('streaming');
  });

  it('plays from the new place when play is pressed while a skip is on its way, not from the old one', async () => {
    show(FILE);
    await waitFor(() => expect(text('status')).toBe('ready'));
    const audio = screen.getByTestId('audio') as HTMLAudioElement;
    let release = () => {};
    server.signedUrlGate = new Promise((resolve) => (release = resolve));
    fireEvent.click(screen.getByText('skip to 60'));
    expect(text('position')).toBe('60');
    fireEvent.click(screen.getByText('toggle'));
    // Nothing is heard from 0:00 meanwhile, so nothing at 0:00 can be reported.
    expect(audio.play).not.toHaveBeenCalled();
    expect(text('playing')).toBe('paused');

    await act(async () => release());
    await waitFor(() => expect(audioSrc()).toBe('/api/v1/drm/signed/f1?start=60'));
    await waitFor(() => expect(text('playing')).toBe('streaming'));
    expect(text('position')).toBe('60');
  });

  it('stays paused at the new place when pause is pressed while a skip is on its way', async () => {
    show(FILE);
    await waitFor(() => expect(text('status')).toBe('ready'));
    fireEvent.click(screen.getByText('toggle'));
    await waitFor(() => expect(text('playing')).toBe('streaming'));
    let release = () => {};
    server.signedUrlGate = new Promise((resolve) => (release = resolve));
    // The seek bar resumes playing by default; the pause pressed before the URL arrives wins.
    fireEvent.click(screen.getByText('seek past end'));
    fireEvent.click(screen.getByText('toggle'));
    expect(text('playing')).toBe('paused');

    await act(async () => release());
    await waitFor(() => expect(audioSrc()).toBe('/api/v1/drm/signed/f1?start=119.5'));
    expect(text('playing')).toBe('paused');
  });

  it('empties the element when the player is closed (signed out)', async () => {
    const { rerender } = show(FILE);
    await waitFor(() => expect(text('status')).toBe('ready'));
    rerender(<Player source={null} />);
    expect(audioSrc()).toBeNull();
    expect(text('status')).toBe('idle');
  });
});
