import type { ThankYouScreen } from '@formline/form-definition';
import { el } from './element.builder';
import type { PageContext } from './page.context';

/** A submission the service refused, with its status and description. */
export class SubmitError extends Error {
  constructor(
    readonly status: number,
    readonly description: string | undefined,
  ) {
    super(`submission answered ${status}`);
  }
}

// Sends the answers on the respondent's path, once: the idempotency key is
// made before the first attempt and kept (with the answers) until the
// submission is stored, so a double click, a retry or a reload counts once.
// Answers the ending the service names (its logic's), else the page's own.
// A failure shows the service's description of a refusal (a 4xx), else the
// page's words, and a button to try again.
export async function sendSubmission(
  page: PageContext,
  localEnding: ThankYouScreen,
  fetcher: typeof fetch = fetch,
): Promise<{ ending: ThankYouScreen } | { failed: true }> {
  const { t, session } = page;
  const key = session.progressKey();
  const answers = session.answersSoFar();
  const status = el('p', { class: 'status', role: 'status' }, t.submitting);
  page.show(el('section', { class: 'screen sending', 'aria-busy': 'true' }, status));
  page.live.textContent = t.submitting;
  try {
    const response = await fetcher(page.submitUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({
        progress_key: key,
        landed_at: session.landedAt,
        hidden: session.hidden,
        answers,
      }),
    });
    const body = (await response.json().catch(() => undefined)) as
      { ending?: { ref?: string }; description?: string } | undefined;
    if (!response.ok) throw new SubmitError(response.status, body?.description);
    const ending =
      page.form.thankyou_screens.find((screen) => screen.ref === body?.ending?.ref) ?? localEnding;
    return { ending };
  } catch (error) {
    const retry = el('button', { type: 'button', class: 'primary' }, t.retry);
    retry.addEventListener('click', () => void page.submit(localEnding));
    const detail =
      error instanceof SubmitError && error.status < 500 && error.description
        ? error.description
        : t.submitFailed;
    page.show(
      el(
        'section',
        { class: 'screen failed' },
        el('p', { class: 'error', role: 'alert' }, detail),
        el('div', { class: 'actions' }, retry),
      ),
    );
    retry.focus();
    return { failed: true };
  }
}
