import { useMutation, useQuery } from '@apollo/client/react';
import {
  CheckpointsDocument,
  CreateCheckpointDocument,
  DeleteCheckpointDocument,
  type CheckpointItemFragment,
} from '../../../gql/graphql';
import type { NewCheckpoint } from '../components/AddCheckpointDialog';

/**
 * The caller's checkpoints in one file. Add and delete failures are only logged (spec section 8).
 * `prefetched`: the list was just asked for (PlayerPage); it is read from that answer.
 */
export function useCheckpoints(fileId: string, prefetched = false) {
  const { data, dataState } = useQuery(CheckpointsDocument, {
    variables: { fileId },
    fetchPolicy: prefetched ? 'cache-first' : 'cache-and-network',
  });
  const refetchQueries = [{ query: CheckpointsDocument, variables: { fileId } }];
  const [create] = useMutation(CreateCheckpointDocument, { refetchQueries, awaitRefetchQueries: true });
  const [remove] = useMutation(DeleteCheckpointDocument, { refetchQueries, awaitRefetchQueries: true });

  const checkpoints: CheckpointItemFragment[] = dataState === 'complete' ? data.checkpoints : [];

  const add = async (entry: NewCheckpoint) => {
    try {
      await create({
        variables: {
          input: { fileId, name: entry.name, description: entry.description || null, timestamp: entry.timestamp },
        },
      });
    } catch (error) {
      console.error('Failed to add checkpoint', error);
    }
  };

  const del = async (id: string) => {
    try {
      await remove({ variables: { id } });
    } catch (error) {
      console.error('Failed to delete checkpoint', error);
    }
  };

  return { checkpoints, add, del };
}
