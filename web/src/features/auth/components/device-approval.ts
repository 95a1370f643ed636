import { lazyOnOpen } from '../../../components/lazy-on-open';

/** DeviceApprovalDialog, loaded when a sign-in or sign-up first asks for the approval. */
export const DeviceApprovalDialog = lazyOnOpen(
  () => import('./DeviceApprovalDialog').then((m) => m.DeviceApprovalDialog),
  'DeviceApprovalDialog',
);
