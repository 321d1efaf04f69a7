import type { ReactNode } from 'react';
import { ConfirmDialog } from './ConfirmDialog';

/** Asks before deleting the `noun` ("policy", "flow", "group") named `name`; `children` says what goes. */
export function DeleteDialog({
  noun,
  name,
  children,
  onClose,
  onDelete,
}: {
  noun: string;
  name: string;
  children: ReactNode;
  onClose: () => void;
  onDelete: () => void;
}) {
  return (
    <ConfirmDialog
      title={`Delete the ${noun} “${name}”?`}
      confirmLabel={`Delete “${name}”`}
      onCancel={onClose}
      onConfirm={() => {
        onClose();
        onDelete();
      }}
    >
      {children}
    </ConfirmDialog>
  );
}
