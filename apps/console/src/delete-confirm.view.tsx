import { useEffect, useRef } from 'preact/hooks';

interface Props {
  tag: string;
  deleting: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

// Deleting a webhook cannot be undone (its delivery log goes with it), so it
// is asked once more, in the page rather than with the browser's confirm(),
// which a keyboard and a screen reader handle worse. Focus moves to the
// question so it is heard, and Escape cancels.
export function DeleteConfirmView({ tag, deleting, onConfirm, onCancel }: Props) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  // Escape cancels wherever focus is while the question is open.
  useEffect(() => {
    const cancelOnEscape = (event: KeyboardEvent) => event.key === 'Escape' && onCancel();
    document.addEventListener('keydown', cancelOnEscape);
    return () => document.removeEventListener('keydown', cancelOnEscape);
  }, [onCancel]);
  return (
    <section class="confirm" aria-labelledby="delete-title">
      <h2 id="delete-title" tabIndex={-1} ref={heading}>
        Delete the webhook {tag}?
      </h2>
      <p>It stops receiving events at once, and its delivery log is deleted with it.</p>
      <div class="actions">
        <button type="button" class="danger" disabled={deleting} onClick={onConfirm}>
          {deleting ? 'Deleting…' : `Yes, delete ${tag}`}
        </button>
        <button type="button" onClick={onCancel}>
          Keep it
        </button>
      </div>
    </section>
  );
}
