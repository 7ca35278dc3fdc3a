import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { useTexts } from './texts.context';

interface Props {
  /** The question, e.g. "Delete the webhook orders?". */
  question: string;
  /** What deleting removes, said before it happens. */
  children: ComponentChildren;
  confirmLabel: string;
  cancelLabel: string;
  deleting: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

// A deletion cannot be undone, so it is asked once more, in the page rather
// than with the browser's confirm(), which a keyboard and a screen reader
// handle worse, saying what goes. Focus moves to the question so it is heard,
// and Escape cancels wherever focus is while the question is open.
export function ConfirmDeletionView({
  question,
  children,
  confirmLabel,
  cancelLabel,
  deleting,
  onConfirm,
  onCancel,
}: Props) {
  const { t } = useTexts();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    const cancelOnEscape = (event: KeyboardEvent) => event.key === 'Escape' && onCancel();
    document.addEventListener('keydown', cancelOnEscape);
    return () => document.removeEventListener('keydown', cancelOnEscape);
  }, [onCancel]);
  return (
    <section class="confirm" aria-labelledby="confirm-deletion-title">
      <h2 id="confirm-deletion-title" tabIndex={-1} ref={heading}>
        {question}
      </h2>
      <p>{children}</p>
      <div class="actions">
        <button type="button" class="danger" disabled={deleting} onClick={onConfirm}>
          {deleting ? t('action.deleting') : confirmLabel}
        </button>
        <button type="button" onClick={onCancel}>
          {cancelLabel}
        </button>
      </div>
    </section>
  );
}
