import { useRef } from 'react';
import type { ReactNode } from 'react';
import { useModal } from '../focus';

/**
 * A modal question; Escape cancels, focus starts on Cancel so that Enter
 * never destroys by accident, and returns to the control that asked.
 */
export function ConfirmDialog({
  title,
  confirmLabel,
  children,
  onConfirm,
  onCancel,
}: {
  title: string;
  confirmLabel: string;
  children: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useModal(ref);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby="confirm-title" onCancel={(e) => { e.preventDefault(); onCancel(); }}>
      <h2 id="confirm-title">{title}</h2>
      <p>{children}</p>
      <div className="actions">
        <button type="button" className="btn" onClick={onCancel} autoFocus>
          Cancel
        </button>
        <button type="button" className="btn btn-danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
