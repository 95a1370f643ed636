import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import { ApolloProvider } from '@apollo/client/react';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_SIZE } from './chunk-transfer';
import { useChunkedUpload } from './useChunkedUpload';

// The hook's boundaries are faked, nothing inside it: GraphQL over fetch (init, status, cancel),
// chunk POSTs over XMLHttpRequest and the hashing Worker. `server` is what the API would hold.

interface Server {
  uploadedChunks: Set<number>;
  /** How the next chunk POSTs are answered: at once, left hanging, or refused. */
  chunks: 'accept' | 'hold' | 'refuse';
  initFails: boolean;
  operations: { name: string; variables: Record<string, unknown> }[];
}

let server: Server;

class FakeXhr {
  static all: FakeXhr[] = [];
  upload: { onprogress: ((event: { loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  statusText = '';
  responseText = '';
  timeout = 0;
  withCredentials = false;
  url = '';
  headers: Record<string, string> = {};
  aborted = false;

  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  get chunkIndex() {
    return Number(this.headers['X-Chunk-Index']);
  }
  send() {
    FakeXhr.all.push(this);
    if (server.chunks === 'accept') setTimeout(() => this.answer(200), 0);
    if (server.chunks === 'refuse') setTimeout(() => this.answer(400, 'Chunk rejected'), 0);
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  answer(status: number, message?: string) {
    if (this.aborted) return;
    if (status === 200) server.uploadedChunks.add(this.chunkIndex);
    this.status = status;
    this.responseText = JSON.stringify(status === 200 ? { success: true } : { success: false, message });
    this.onload?.();
  }
}

class FakeWorker {
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: (() => void) | null = null;
  postMessage(file: File) {
    setTimeout(() => {
      this.onmessage?.({ data: { type: 'progress', hashedBytes: file.size } });
      this.onmessage?.({ data: { type: 'done', hash: 'ab'.repeat(32) } });
    }, 0);
  }
  terminate() {}
}

const UPLOAD_ID = 'upload-1';

function graphqlAnswer(name: string): unknown {
  if (name === 'AdminInitUpload') {
    if (server.initFails) return { errors: [{ message: 'Disk full', extensions: { code: 'INTERNAL' } }] };
    return {
      data: { initUpload: { __typename: 'UploadSession', id: UPLOAD_ID, totalChunks: 3, chunkSize: CHUNK_SIZE } },
    };
  }
  if (name === 'AdminUploadSession') {
    return {
      data: {
        uploadSession: {
          __typename: 'UploadSession',
          id: UPLOAD_ID,
          state: 'active',
          totalChunks: 3,
          chunkSize: CHUNK_SIZE,
          uploadedChunks: [...server.uploadedChunks].sort(),
        },
      },
    };
  }
  if (name === 'AdminCancelUpload') {
    return { data: { cancelUpload: { __typename: 'UploadSession', id: UPLOAD_ID, state: 'cancelled' } } };
  }
  throw new Error(`unexpected operation ${name}`);
}

const fakeFetch = async (_url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const body = JSON.parse(String(init?.body)) as { operationName: string; variables: Record<string, unknown> };
  server.operations.push({ name: body.operationName, variables: body.variables });
  return new Response(JSON.stringify(graphqlAnswer(body.operationName)), {
    headers: { 'content-type': 'application/json' },
  });
};

// Three chunks: two full ones and a short last one.
const file = new File([new Uint8Array(2 * CHUNK_SIZE + 1000)], 'lecture.mp3', { type: 'audio/mpeg', lastModified: 42 });

function renderUpload(picked: File | null = file) {
  const client = new ApolloClient({
    link: new HttpLink({ uri: 'http://localhost/graphql', fetch: fakeFetch }),
    cache: new InMemoryCache(),
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <ApolloProvider client={client}>{children}</ApolloProvider>
  );
  return renderHook(() => useChunkedUpload(picked), { wrapper });
}

const sentChunks = () => FakeXhr.all.map((xhr) => xhr.chunkIndex);
const operationNames = () => server.operations.map((op) => op.name);

beforeEach(() => {
  server = { uploadedChunks: new Set(), chunks: 'accept', initFails: false, operations: [] };
  FakeXhr.all = [];
  localStorage.clear();
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  vi.stubGlobal('Worker', FakeWorker);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('useChunkedUpload', () => {
  it('goes from idle through uploading to completed, sending every chunk once with its headers', async () => {
    const { result } = renderUpload();
    expect(result.current.state).toMatchObject({ status: 'idle', totalChunks: 3, doneChunks: 0 });

    server.chunks = 'hold';
    act(() => void result.current.start());
    await waitFor(() => expect(result.current.state.status).toBe('uploading'));
    expect(result.current.state.uploadId).toBe(UPLOAD_ID);
    expect(server.operations[0]).toMatchObject({
      name: 'AdminInitUpload',
      variables: { input: { fileName: 'lecture.mp3', fileSize: file.size, totalChunks: 3, fileHash: 'ab'.repeat(32) } },
    });

    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    expect(FakeXhr.all[0].url).toBe('/api/v1/audio/upload/chunk');
    expect(FakeXhr.all[0].headers).toMatchObject({
      'X-Upload-ID': UPLOAD_ID,
      'X-Chunk-Index': '0',
      'X-Total-Chunks': '3',
      'X-File-Size': String(file.size),
    });
    server.chunks = 'accept';
    act(() => FakeXhr.all[0].answer(200));

    await waitFor(() => expect(result.current.state.status).toBe('completed'));
    expect(sentChunks()).toEqual([0, 1, 2]);
    expect(result.current.state).toMatchObject({ doneChunks: 3, uploadedBytes: file.size, error: null });
  });

  it('Pause aborts the chunk in flight; Resume asks the server and sends only what it lacks', async () => {
    const { result } = renderUpload();
    server.chunks = 'hold';
    act(() => void result.current.start());
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    act(() => FakeXhr.all[0].answer(200));
    await waitFor(() => expect(FakeXhr.all).toHaveLength(2));
    const inFlight = FakeXhr.all[1];

    act(() => result.current.pause());
    expect(inFlight.aborted).toBe(true);
    expect(result.current.state).toMatchObject({
      status: 'paused',
      doneChunks: 1,
      uploadedBytes: CHUNK_SIZE,
      speed: 0,
    });
    // Paused means paused: nothing more goes out.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(FakeXhr.all).toHaveLength(2);

    // The aborted chunk did reach the server before the cut: Resume must not send it again.
    server.uploadedChunks.add(1);
    server.chunks = 'accept';
    act(() => void result.current.resume());
    await waitFor(() => expect(result.current.state.status).toBe('completed'));
    expect(operationNames()).toEqual(['AdminInitUpload', 'AdminUploadSession']);
    expect(sentChunks()).toEqual([0, 1, 2]);
    expect(result.current.state.doneChunks).toBe(3);
  });

  it('a chunk that keeps failing ends in error after three retries; Retry carries on, Cancel goes back to idle', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { result } = renderUpload();
    server.chunks = 'refuse';
    await act(async () => {
      void result.current.start();
      // Hashing, init, then the first try and three retries 1, 2 and 3 s apart.
      await vi.advanceTimersByTimeAsync(6_100);
    });
    expect(sentChunks()).toEqual([0, 0, 0, 0]);
    expect(result.current.state).toMatchObject({
      status: 'error',
      error: 'Failed to upload chunk 1: Chunk rejected',
      doneChunks: 0,
    });

    server.chunks = 'accept';
    await act(async () => {
      void result.current.retry();
      await vi.advanceTimersByTimeAsync(100);
    });
    expect(result.current.state).toMatchObject({ status: 'completed', error: null, doneChunks: 3 });
    expect(operationNames()).toEqual(['AdminInitUpload', 'AdminUploadSession']);

    await act(() => result.current.cancel());
    expect(result.current.state).toMatchObject({ status: 'idle', uploadId: null, doneChunks: 0, uploadedBytes: 0 });
    expect(server.operations.at(-1)).toEqual({ name: 'AdminCancelUpload', variables: { id: UPLOAD_ID } });
    expect(localStorage.getItem('admin.chunkedUploads')).toBe('[]');
  });

  it('Retry after a failed start restarts: hashes and initialises again', async () => {
    server.initFails = true;
    const { result } = renderUpload();
    act(() => void result.current.start());
    await waitFor(() => expect(result.current.state.status).toBe('error'));
    expect(result.current.state.error).toBe('Failed to initialize upload: Disk full');
    expect(FakeXhr.all).toHaveLength(0);

    server.initFails = false;
    act(() => void result.current.retry());
    await waitFor(() => expect(result.current.state.status).toBe('completed'));
    expect(operationNames()).toEqual(['AdminInitUpload', 'AdminInitUpload']);
    expect(sentChunks()).toEqual([0, 1, 2]);
  });

  it('Cancel while uploading stops the chunk in flight and tells the server', async () => {
    const { result } = renderUpload();
    server.chunks = 'hold';
    act(() => void result.current.start());
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));

    await act(() => result.current.cancel());
    expect(FakeXhr.all[0].aborted).toBe(true);
    expect(result.current.state.status).toBe('idle');
    expect(operationNames()).toEqual(['AdminInitUpload', 'AdminCancelUpload']);
  });

  it('the same file picked after a reload offers to resume from the chunks the server holds', async () => {
    const first = renderUpload();
    server.chunks = 'hold';
    act(() => void first.result.current.start());
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    act(() => FakeXhr.all[0].answer(200));
    await waitFor(() => expect(FakeXhr.all).toHaveLength(2));
    first.unmount();
    expect(FakeXhr.all[1].aborted).toBe(true);

    const again = renderUpload();
    await waitFor(() => expect(again.result.current.state.status).toBe('paused'));
    expect(again.result.current.state).toMatchObject({
      uploadId: UPLOAD_ID,
      resumedFromStorage: true,
      doneChunks: 1,
      uploadedBytes: CHUNK_SIZE,
    });

    server.chunks = 'accept';
    act(() => void again.result.current.resume());
    await waitFor(() => expect(again.result.current.state.status).toBe('completed'));
    expect(sentChunks()).toEqual([0, 1, 1, 2]);
    expect(operationNames().filter((name) => name === 'AdminInitUpload')).toHaveLength(1);
  });
});
