/**
 * A confirmation in a modal <dialog>: focus moves into it, Escape cancels, and focus returns
 * to the button that opened it (the browser's dialog does all three).
 */
import { useEffect, useRef } from "preact/hooks";
import { useI18n } from "../i18n/index.ts";

export interface ConfirmProps {
  message: string;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
}

export function Confirm({ message, confirmLabel, onConfirm, onCancel }: ConfirmProps) {
  const { t } = useI18n();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  return (
    <dialog ref={dialog} class="confirm" onCancel={onCancel} aria-labelledby="confirm-message">
      <p id="confirm-message">{message}</p>
      <div class="actions">
        <button type="button" onClick={onCancel}>
          {t.keys.cancel}
        </button>
        <button type="button" class="danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
