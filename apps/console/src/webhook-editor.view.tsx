import type { WebhookResource } from '@formline/contracts';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ProblemView } from './problem.view';
import {
  type DraftProblem,
  type WebhookDraft,
  draftOf,
  problemsOf,
  secretMaxLength,
  tagMaxLength,
  urlMaxLength,
} from './webhook-draft.mapper';
import { useTexts } from './texts.context';

interface Props {
  /** The webhook changed; none: a new one. */
  webhook?: WebhookResource;
  saving: boolean;
  /** What the API said when saving failed. */
  problem?: unknown;
  onSave: (draft: WebhookDraft) => void;
  onCancel: () => void;
}

// Creating or changing one webhook: its tag (only when new: the tag is its
// name in the API), the address, a secret that is written and never shown,
// and the switches. Mistakes the console can see are said beside their
// field before anything is sent; the API's own refusal shows above the buttons.
export function WebhookEditorView({ webhook, saving, problem, onSave, onCancel }: Props) {
  const texts = useTexts();
  const { t } = texts;
  const creating = webhook === undefined;
  const [draft, setDraft] = useState<WebhookDraft>(() => draftOf(webhook));
  const [shown, setShown] = useState<DraftProblem[]>([]);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const set = (fields: Partial<WebhookDraft>) => setDraft((current) => ({ ...current, ...fields }));
  const problemOf = (field: DraftProblem['field']) => shown.find((found) => found.field === field);
  const described = (field: DraftProblem['field']) =>
    problemOf(field) ? { 'aria-invalid': true, 'aria-describedby': `webhook-${field}-problem` } : {};
  const fieldProblem = (field: DraftProblem['field']) => {
    const found = problemOf(field);
    return found ? (
      <p id={`webhook-${field}-problem`} class="field-problem">
        {found.message}
      </p>
    ) : null;
  };

  return (
    <section class="editor" aria-labelledby="editor-title">
      <h2 id="editor-title" tabIndex={-1} ref={heading}>
        {creating ? t('webhooks.new') : t('webhook.change', { tag: webhook.tag })}
      </h2>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const problems = problemsOf(draft, creating, texts);
          setShown(problems);
          if (problems.length === 0) onSave(draft);
        }}
        onKeyDown={(event) => event.key === 'Escape' && onCancel()}
      >
        {creating && (
          <div class="field">
            <label for="webhook-tag">{t('webhook.tag')}</label>
            <input
              id="webhook-tag"
              type="text"
              maxLength={tagMaxLength}
              autoComplete="off"
              value={draft.tag}
              onInput={(event) => set({ tag: event.currentTarget.value })}
              {...described('tag')}
            />
            {fieldProblem('tag')}
          </div>
        )}
        <div class="field">
          <label for="webhook-url">{t('webhook.url')}</label>
          <input
            id="webhook-url"
            type="url"
            inputMode="url"
            maxLength={urlMaxLength}
            autoComplete="off"
            placeholder="https://"
            value={draft.url}
            onInput={(event) => set({ url: event.currentTarget.value })}
            {...described('url')}
          />
          {fieldProblem('url')}
        </div>
        <div class="field">
          <label for="webhook-secret">
            {creating || !webhook.secret ? t('webhook.secret') : t('webhook.newSecret')}
          </label>
          <input
            id="webhook-secret"
            type="password"
            maxLength={secretMaxLength}
            autoComplete="new-password"
            value={draft.secret}
            disabled={draft.removeSecret}
            aria-describedby="webhook-secret-hint"
            onInput={(event) => set({ secret: event.currentTarget.value })}
            {...(problemOf('secret') ? { 'aria-invalid': true } : {})}
          />
          <p id="webhook-secret-hint" class="hint">
            {creating || !webhook.secret ? t('webhook.secretHint') : t('webhook.secretSetHint')}
          </p>
          {fieldProblem('secret')}
          {!creating && webhook.secret && (
            <label class="check">
              <input
                type="checkbox"
                checked={draft.removeSecret}
                onChange={(event) => set({ removeSecret: event.currentTarget.checked })}
              />
              {t('webhook.removeSecret')}
            </label>
          )}
        </div>
        <fieldset
          {...(problemOf('event_types') ? { 'aria-describedby': 'webhook-event_types-problem' } : {})}
        >
          <legend>{t('webhook.events')}</legend>
          <label class="check">
            <input
              type="checkbox"
              checked={draft.formResponse}
              onChange={(event) => set({ formResponse: event.currentTarget.checked })}
            />
            {t('webhook.formResponse')}
          </label>
          <label class="check">
            <input
              type="checkbox"
              checked={draft.formResponsePartial}
              onChange={(event) => set({ formResponsePartial: event.currentTarget.checked })}
            />
            {t('webhook.formResponsePartial')}
          </label>
          {fieldProblem('event_types')}
        </fieldset>
        <label class="check">
          <input
            type="checkbox"
            checked={draft.enabled}
            onChange={(event) => set({ enabled: event.currentTarget.checked })}
          />
          {t('webhook.enabled')}
        </label>
        <label class="check">
          <input
            type="checkbox"
            checked={draft.verifySsl}
            onChange={(event) => set({ verifySsl: event.currentTarget.checked })}
          />
          {t('webhook.verifySsl')}
        </label>
        {problem !== undefined && <ProblemView error={problem} />}
        <div class="actions">
          <button type="submit" class="primary" disabled={saving}>
            {saving ? t('action.saving') : creating ? t('webhook.create') : t('webhook.save')}
          </button>
          <button type="button" onClick={onCancel}>
            {t('action.cancel')}
          </button>
        </div>
      </form>
    </section>
  );
}
