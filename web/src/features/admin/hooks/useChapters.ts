import { useMutation, useQuery, useSubscription } from '@apollo/client/react';
import { useRef, useState } from 'react';
import {
  AdminChapterEventsDocument,
  AdminChaptersDocument,
  AdminCreateChaptersDocument,
  AdminDeleteChapterDocument,
  AdminFinalizeChaptersDocument,
  AdminLoadSampleChaptersDocument,
  AdminUpdateChapterDocument,
  type AdminChapterFragment,
  type SegmentStorage,
} from '../../../gql/graphql';
import type { ChapterDraft } from '../components/ChapterDialog';

/** How a finalize request ended, once every chapter it queued is ready or failed. */
export interface FinalizeOutcome {
  finalized: number;
  failed: AdminChapterFragment[];
}

/**
 * A file's chapters and summary, kept live by the server's chapter events, with the edits, and how
 * far the encoding of each chapter being finalized in the background has come (percent by id).
 */
export function useChapters(fileId: string) {
  const query = useQuery(AdminChaptersDocument, { variables: { fileId }, fetchPolicy: 'cache-and-network' });
  const [progress, setProgress] = useState<ReadonlyMap<string, number>>(new Map());
  // The chapters the last finalize request queued, until each is ready or failed (or deleted),
  // and whom to tell then.
  const queued = useRef<{ ids: ReadonlySet<string>; onSettled: (outcome: FinalizeOutcome) => void } | null>(null);
  const refetch = async () => {
    const { data } = await query.refetch();
    const batch = queued.current;
    if (!batch || !data) return;
    const mine = data.chapters.filter((c) => batch.ids.has(c.id));
    if (mine.some((c) => c.status !== 'ready' && c.status !== 'failed')) return;
    queued.current = null;
    batch.onSettled({
      finalized: mine.filter((c) => c.status === 'ready').length,
      failed: mine.filter((c) => c.status === 'failed'),
    });
  };
  useSubscription(AdminChapterEventsDocument, {
    variables: { fileId },
    onData: ({ data }) => {
      const event = data.data?.chapterEvents;
      if (!event) return;
      const { chapterId, status, progress: percent } = event;
      if (chapterId && status === 'finalizing' && percent != null) {
        setProgress((seen) => new Map(seen).set(chapterId, percent));
        // The list already says finalizing once the first figure has come: no need to read it again.
        if (percent > 0) return;
      }
      // Another tab, or a chapter queued, finished or failed: read the list again.
      void refetch();
    },
  });
  const [createChapters] = useMutation(AdminCreateChaptersDocument);
  const [updateChapter] = useMutation(AdminUpdateChapterDocument);
  const [deleteChapter] = useMutation(AdminDeleteChapterDocument);
  const [loadSamples, { loading: loadingSamples }] = useMutation(AdminLoadSampleChaptersDocument);
  const [finalizeChapters, { loading: finalizing }] = useMutation(AdminFinalizeChaptersDocument);

  return {
    chapters: query.data?.chapters ?? [],
    summary: query.data?.chapterStatus ?? { pending: 0, finalizing: 0, ready: 0, failed: 0, total: 0 },
    /** Percent encoded of chapters being finalized, as last reported by the server. */
    progress,
    loading: query.loading,
    error: query.error,
    loadingSamples,
    finalizing,
    add: async (draft: ChapterDraft, order: number) => {
      await createChapters({ variables: { fileId, chapters: [{ ...draft, order }] } });
      await refetch();
    },
    update: async (chapterId: string, draft: ChapterDraft) => {
      await updateChapter({ variables: { fileId, chapterId, input: draft } });
      await refetch();
    },
    remove: async (chapterId: string) => {
      await deleteChapter({ variables: { fileId, chapterId } });
      await refetch();
    },
    loadSamples: async () => {
      await loadSamples({ variables: { fileId } });
      await refetch();
    },
    /** Queues the pending chapters; `onSettled` hears how it ended once each is ready or failed. */
    finalize: async (storageType: SegmentStorage, onSettled: (outcome: FinalizeOutcome) => void) => {
      const pending = new Set(query.data?.chapters.filter((c) => c.status === 'pending').map((c) => c.id));
      const { data } = await finalizeChapters({ variables: { fileId, storageType } });
      if (data?.finalizeChapters.queuedChapters) queued.current = { ids: pending, onSettled };
      await refetch();
    },
  };
}
