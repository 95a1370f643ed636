import { useApolloClient } from '@apollo/client/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { AdminCancelUploadDocument, AdminInitUploadDocument, AdminJoinBookUploadDocument } from '../../../gql/graphql';
import { errorText } from '../admin-format';
import { CHUNK_SIZE, chunkBytes, isAbort, sendChunk } from './chunk-transfer';
import { hashFile } from './hash-file';

export type BookUploadStatus = 'idle' | 'uploading' | 'joining' | 'error' | 'completed';

export interface BookUploadState {
  status: BookUploadStatus;
  /** The part being sent (0-based), while uploading. */
  partIndex: number;
  uploadedBytes: number;
  totalBytes: number;
  error: string | null;
}

export interface BookDetails {
  title: string;
  description: string;
  isPublic: boolean;
}

/** What the server holds of one part: its upload, and whether every chunk arrived. */
interface SentPart {
  uploadId: string;
  complete: boolean;
}

const totalOf = (files: readonly File[]) => files.reduce((sum, f) => sum + f.size, 0);

/**
 * Sends the parts of one book, each as a chunked upload, then asks the server to join them in the
 * order shown. A retry sends only the parts the server does not hold in full, and a join that
 * failed is tried again without sending anything: the server keeps the parts.
 */
export function useBookUpload(files: readonly File[]) {
  const client = useApolloClient();
  const [state, setState] = useState<BookUploadState>({
    status: 'idle',
    partIndex: 0,
    uploadedBytes: 0,
    totalBytes: totalOf(files),
    error: null,
  });
  const sent = useRef(new Map<File, SentPart>());
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const sendPart = useCallback(
    async (file: File, signal: AbortSignal, bytesBefore: number): Promise<string> => {
      const held = sent.current.get(file);
      if (held?.complete) return held.uploadId;
      const totalChunks = Math.max(1, Math.ceil(file.size / CHUNK_SIZE));
      let uploadId = held?.uploadId;
      if (!uploadId) {
        const fileHash = await hashFile(file, () => undefined, signal);
        const { data } = await client.mutate({
          mutation: AdminInitUploadDocument,
          variables: {
            input: { fileName: file.name, fileSize: file.size, totalChunks, fileHash, mimeType: file.type || null },
          },
        });
        if (!data?.initUpload.id) throw new Error('Invalid response: uploadId not received');
        uploadId = data.initUpload.id;
        sent.current.set(file, { uploadId, complete: false });
      }
      let done = 0;
      for (let index = 0; index < totalChunks; index += 1) {
        await sendChunk({ uploadId, file, totalChunks }, index, signal, (bytes) =>
          setState((s) => ({ ...s, uploadedBytes: bytesBefore + done + bytes })),
        );
        done += chunkBytes(file, index);
      }
      sent.current.set(file, { uploadId, complete: true });
      return uploadId;
    },
    [client],
  );

  /** Sends what is missing of `ordered` and joins it, in that order. */
  const upload = useCallback(
    async (ordered: readonly File[], details: BookDetails): Promise<string | null> => {
      const abort = new AbortController();
      controller.current = abort;
      const totalBytes = totalOf(ordered);
      setState({ status: 'uploading', partIndex: 0, uploadedBytes: 0, totalBytes, error: null });
      const uploadIds: string[] = [];
      let bytesBefore = 0;
      try {
        for (const [partIndex, file] of ordered.entries()) {
          setState((s) => ({ ...s, partIndex, uploadedBytes: bytesBefore }));
          uploadIds.push(await sendPart(file, abort.signal, bytesBefore));
          bytesBefore += file.size;
        }
      } catch (err) {
        if (isAbort(err)) return null;
        const name = ordered[uploadIds.length]?.name ?? '';
        setState((s) => ({
          ...s,
          status: 'error',
          error: `Failed to upload "${name}": ${errorText(err, 'Chunked upload failed. Please try again.')}`,
        }));
        return null;
      }
      setState((s) => ({ ...s, status: 'joining', uploadedBytes: totalBytes }));
      try {
        const { data } = await client.mutate({
          mutation: AdminJoinBookUploadDocument,
          variables: {
            input: {
              uploadIds,
              order: 'given',
              title: details.title.trim() || null,
              description: details.description.trim() || null,
              isPublic: details.isPublic,
            },
          },
        });
        setState((s) => ({ ...s, status: 'completed' }));
        return data?.joinBookUpload.id ?? null;
      } catch (err) {
        setState((s) => ({ ...s, status: 'error', error: errorText(err, 'The parts could not be joined.') }));
        return null;
      }
    },
    [client, sendPart],
  );

  /** Stops sending and removes every part the server holds. */
  const cancel = useCallback(async () => {
    controller.current?.abort();
    const ids = [...sent.current.values()].map((p) => p.uploadId);
    sent.current.clear();
    setState({ status: 'idle', partIndex: 0, uploadedBytes: 0, totalBytes: totalOf(files), error: null });
    await Promise.all(
      ids.map((id) =>
        client.mutate({ mutation: AdminCancelUploadDocument, variables: { id } }).catch(() => {
          // Already gone on the server (expired or joined): nothing left to cancel.
        }),
      ),
    );
  }, [client, files]);

  return { state, upload, cancel };
}
