import { useEffect, useRef } from 'preact/hooks';

interface Props {
  count: number;
  deleting: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

// Deleting responses cannot be undone, so it is asked once more in the page
// (as deleting a webhook is), saying what goes: focus moves to the question,
// and Escape keeps the responses.
export function DeleteResponsesView({ count, deleting, onConfirm, onCancel }: Props) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    const cancelOnEscape = (event: KeyboardEvent) => event.key === 'Escape' && onCancel();
    document.addEventListener('keydown', cancelOnEscape);
    return () => document.removeEventListener('keydown', cancelOnEscape);
  }, [onCancel]);
  const what = count === 1 ? 'the selected response' : `the ${count} selected responses`;
  return (
    <section class="confirm" aria-labelledby="delete-responses-title">
      <h2 id="delete-responses-title" tabIndex={-1} ref={heading}>
        Delete {what}?
      </h2>
      <p>
        Their answers, hidden fields and metadata, and the files respondents uploaded with them, are deleted
        for good: they leave these results, the exports and the insights, and cannot be brought back. Webhook
        deliveries already sent are not taken back.
      </p>
      <div class="actions">
        <button type="button" class="danger" disabled={deleting} onClick={onConfirm}>
          {deleting ? 'Deleting…' : `Yes, delete ${count === 1 ? 'it' : `all ${count}`}`}
        </button>
        <button type="button" onClick={onCancel}>
          Keep {count === 1 ? 'it' : 'them'}
        </button>
      </div>
    </section>
  );
}
