import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';

interface ConfirmedAction<Row> {
  title: string;
  confirmLabel: string;
  /** The question, naming the row. */
  message: (row: Row) => string;
  run: (row: Row) => Promise<void>;
}

/**
 * A destructive action asked for on one row and confirmed in a dialog (delete, revoke): `ask(row)`
 * opens it, `dialog` is the element to render; it closes when the action has settled.
 */
export function useConfirmedAction<Row>({ title, confirmLabel, message, run }: ConfirmedAction<Row>) {
  const [target, setTarget] = useState<Row | null>(null);
  const [busy, setBusy] = useState(false);
  const confirm = () => {
    if (target === null) return;
    setBusy(true);
    void run(target).finally(() => {
      setBusy(false);
      setTarget(null);
    });
  };
  const dialog = (
    <ConfirmDialog
      open={target !== null}
      title={title}
      confirmLabel={confirmLabel}
      danger
      busy={busy}
      message={target === null ? '' : message(target)}
      onConfirm={confirm}
      onCancel={() => setTarget(null)}
    />
  );
  return { ask: setTarget, dialog };
}
