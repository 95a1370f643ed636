import { useApolloClient } from '@apollo/client/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { AdminCancelUploadDocument, AdminInitUploadDocument, AdminUploadSessionDocument } from '../../../gql/graphql';
import { errorText } from '../admin-format';
import { CHUNK_SIZE, chunkBytes, isAbort, sendChunk } from './chunk-transfer';
import { hashFile } from './hash-file';
import { findResumable, forgetUpload, rememberUpload } from './upload-resume-store';

export type ChunkedStatus = 'idle' | 'hashing' | 'uploading' | 'paused' | 'error' | 'completed';

export interface ChunkedUploadState {
  status: ChunkedStatus;
  uploadId: string | null;
  totalChunks: number;
  doneChunks: number;
  uploadedBytes: number;
  hashedBytes: number;
  /** Bytes per second over the current run. */
  speed: number;
  remainingSeconds: number | null;
  error: string | null;
  /** A server-side upload of this file from an earlier visit was found. */
  resumedFromStorage: boolean;
}

const initialState = (file: File | null): ChunkedUploadState => ({
  status: 'idle',
  uploadId: null,
  totalChunks: file ? Math.max(1, Math.ceil(file.size / CHUNK_SIZE)) : 0,
  doneChunks: 0,
  uploadedBytes: 0,
  hashedBytes: 0,
  speed: 0,
  remainingSeconds: null,
  error: null,
  resumedFromStorage: false,
});

/** The chunked upload state machine: idle, uploading, paused, error, completed (spec section 4). */
export function useChunkedUpload(file: File | null) {
  const client = useApolloClient();
  const [state, setState] = useState<ChunkedUploadState>(() => initialState(file));
  const controller = useRef<AbortController | null>(null);
  const done = useRef<Set<number>>(new Set());

  const bytesDone = useCallback(() => {
    let sum = 0;
    if (file) for (const index of done.current) sum += chunkBytes(file, index);
    return sum;
  }, [file]);

  const serverChunks = useCallback(
    async (uploadId: string) => {
      const { data } = await client.query({
        query: AdminUploadSessionDocument,
        variables: { id: uploadId },
        fetchPolicy: 'network-only',
      });
      if (!data) throw new Error('Upload session not found');
      return data.uploadSession;
    },
    [client],
  );

  // A new file: drop the old run; offer to resume when this file has an upload on the server.
  useEffect(() => {
    controller.current?.abort();
    done.current = new Set();
    setState(initialState(file));
    if (!file) return;
    const stored = findResumable(file);
    if (!stored) return;
    let cancelled = false;
    serverChunks(stored.uploadId).then(
      (session) => {
        if (cancelled) return;
        if (session.state !== 'active') {
          forgetUpload(stored.uploadId);
          return;
        }
        done.current = new Set(session.uploadedChunks);
        setState((s) => ({
          ...s,
          status: 'paused',
          uploadId: stored.uploadId,
          doneChunks: done.current.size,
          uploadedBytes: bytesDone(),
          resumedFromStorage: true,
        }));
      },
      () => forgetUpload(stored.uploadId),
    );
    return () => {
      cancelled = true;
    };
  }, [file, serverChunks, bytesDone]);

  useEffect(() => () => controller.current?.abort(), []);

  const run = useCallback(
    async (uploadId: string, totalChunks: number, signal: AbortSignal) => {
      if (!file) return;
      const startedAt = performance.now();
      const startBytes = bytesDone();
      for (let index = 0; index < totalChunks; index += 1) {
        if (done.current.has(index)) continue;
        try {
          await sendChunk({ uploadId, file, totalChunks }, index, signal, (sent) => {
            const uploadedBytes = bytesDone() + sent;
            const seconds = (performance.now() - startedAt) / 1000;
            const speed = seconds > 0 ? (uploadedBytes - startBytes) / seconds : 0;
            setState((s) => ({
              ...s,
              uploadedBytes,
              speed,
              remainingSeconds: speed > 0 ? (file.size - uploadedBytes) / speed : null,
            }));
          });
        } catch (err) {
          if (isAbort(err)) return;
          setState((s) => ({
            ...s,
            status: 'error',
            error: `Failed to upload chunk ${index + 1}: ${errorText(err, 'Chunked upload failed. Please try again.')}`,
          }));
          return;
        }
        done.current.add(index);
        setState((s) => ({ ...s, doneChunks: done.current.size, uploadedBytes: bytesDone() }));
      }
      setState((s) => ({ ...s, status: 'completed', remainingSeconds: 0 }));
    },
    [file, bytesDone],
  );

  const start = useCallback(async () => {
    if (!file) return;
    const abort = new AbortController();
    controller.current = abort;
    done.current = new Set();
    setState({ ...initialState(file), status: 'hashing' });
    let uploadId: string;
    const totalChunks = Math.max(1, Math.ceil(file.size / CHUNK_SIZE));
    try {
      const fileHash = await hashFile(file, (hashedBytes) => setState((s) => ({ ...s, hashedBytes })), abort.signal);
      const { data } = await client.mutate({
        mutation: AdminInitUploadDocument,
        variables: {
          input: { fileName: file.name, fileSize: file.size, totalChunks, fileHash, mimeType: file.type || null },
        },
      });
      if (!data?.initUpload.id) throw new Error('Invalid response: uploadId not received');
      uploadId = data.initUpload.id;
      rememberUpload({
        uploadId,
        fileName: file.name,
        fileSize: file.size,
        lastModified: file.lastModified,
        fileHash,
        totalChunks,
      });
    } catch (err) {
      if (isAbort(err)) return;
      setState((s) => ({
        ...s,
        status: 'error',
        error: `Failed to initialize upload: ${errorText(err, 'Failed to initialize upload session')}`,
      }));
      return;
    }
    // No settling wait after init: the server holds the session as soon as it answers.
    setState((s) => ({ ...s, status: 'uploading', uploadId, totalChunks }));
    await run(uploadId, totalChunks, abort.signal);
  }, [file, client, run]);

  const pause = useCallback(() => {
    controller.current?.abort();
    setState((s) => ({ ...s, status: 'paused', speed: 0, remainingSeconds: null, uploadedBytes: bytesDone() }));
  }, [bytesDone]);

  const resume = useCallback(async () => {
    const { uploadId, totalChunks } = state;
    if (!uploadId) return start();
    const abort = new AbortController();
    controller.current = abort;
    setState((s) => ({ ...s, status: 'uploading', error: null }));
    try {
      // The server is the truth: a chunk cut off by Pause may or may not have arrived.
      const session = await serverChunks(uploadId);
      done.current = new Set(session.uploadedChunks);
      setState((s) => ({ ...s, doneChunks: done.current.size, uploadedBytes: bytesDone() }));
    } catch (err) {
      setState((s) => ({ ...s, status: 'error', error: errorText(err, 'Chunked upload failed. Please try again.') }));
      return;
    }
    await run(uploadId, totalChunks, abort.signal);
  }, [state, start, serverChunks, bytesDone, run]);

  const cancel = useCallback(async () => {
    controller.current?.abort();
    const { uploadId } = state;
    done.current = new Set();
    setState(initialState(file));
    if (!uploadId) return;
    forgetUpload(uploadId);
    await client.mutate({ mutation: AdminCancelUploadDocument, variables: { id: uploadId } }).catch(() => {
      // Already gone on the server (expired or finished): nothing left to cancel.
    });
  }, [state, file, client]);

  return { state, start, pause, resume, cancel, retry: resume };
}
