import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal confirmation: the native <dialog> with showModal(), so focus moves into it and stays,
 * Escape cancels, and focus returns to the button that opened it. Cancel has the focus first.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  const { onCancel } = props;
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId}>{props.title}</h2>
      <div id={bodyId}>{props.children}</div>
      <div className="dialog-buttons">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className={props.danger ? 'button-danger' : 'button-primary'} onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
