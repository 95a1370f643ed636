import { useMutation, useQuery, useSubscription } from '@apollo/client/react';
import {
  AdminChapterEventsDocument,
  AdminChaptersDocument,
  AdminCreateChaptersDocument,
  AdminDeleteChapterDocument,
  AdminFinalizeChaptersDocument,
  AdminLoadSampleChaptersDocument,
  AdminUpdateChapterDocument,
  type SegmentStorage,
} from '../../../gql/graphql';
import type { ChapterDraft } from '../components/ChapterDialog';

/** A file's chapters and summary, kept live by the server's chapter events, with the edits. */
export function useChapters(fileId: string) {
  const query = useQuery(AdminChaptersDocument, { variables: { fileId }, fetchPolicy: 'cache-and-network' });
  const { refetch } = query;
  useSubscription(AdminChapterEventsDocument, {
    variables: { fileId },
    // Another tab or a finalize in progress changed something: read the list again.
    onData: () => void refetch(),
  });
  const [createChapters] = useMutation(AdminCreateChaptersDocument);
  const [updateChapter] = useMutation(AdminUpdateChapterDocument);
  const [deleteChapter] = useMutation(AdminDeleteChapterDocument);
  const [loadSamples, { loading: loadingSamples }] = useMutation(AdminLoadSampleChaptersDocument);
  const [finalizeChapters, { loading: finalizing }] = useMutation(AdminFinalizeChaptersDocument);

  return {
    chapters: query.data?.chapters ?? [],
    summary: query.data?.chapterStatus ?? { pending: 0, ready: 0, failed: 0, total: 0 },
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
    finalize: async (storageType: SegmentStorage) => {
      const { data } = await finalizeChapters({ variables: { fileId, storageType } });
      await refetch();
      return data?.finalizeChapters ?? null;
    },
  };
}
