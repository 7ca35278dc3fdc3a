import type { WebhookResource } from '@formline/contracts';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type ApiClient, ApiError } from './api.client';
import { hashOf } from './console.route';
import { ConfirmDeletionView } from './confirm-deletion.view';
import { ProblemView } from './problem.view';
import { WebhookApiClient } from './webhook-api.client';
import { bodyOf, type WebhookDraft } from './webhook-draft.mapper';
import { WebhookEditorView } from './webhook-editor.view';
import { WebhookListView } from './webhook-list.view';
import { useTexts } from './texts.context';

interface Props {
  api: ApiClient;
  formId: string;
  onSignInEnded: (error: ApiError) => void;
}

type Loaded<T> = { state: 'loading' } | { state: 'failed'; error: unknown } | { state: 'loaded'; value: T };
type Editing = { webhook?: WebhookResource; saving: boolean; problem?: unknown };

// The Webhooks screen of one form: its webhooks, each with its newest
// delivery; creating and changing one, turning it on or off, sending it a
// test, deleting it once confirmed, and a link to its delivery log. Every change is answered
// in the status line, or by the API's words when it fails.
export function WebhooksScreen({ api, formId, onSignInEnded }: Props) {
  const { t } = useTexts();
  const webhooks = useMemo(() => new WebhookApiClient(api, formId), [api, formId]);
  const [title, setTitle] = useState<string>();
  const [list, setList] = useState<Loaded<WebhookResource[]>>({ state: 'loading' });
  // Bumped after every change, to read the list (and each newest delivery) again.
  const [version, setVersion] = useState(0);
  const [editing, setEditing] = useState<Editing>();
  const [deleting, setDeleting] = useState<{ webhook: WebhookResource; busy: boolean }>();
  const [busy, setBusy] = useState<string>();
  const [notice, setNotice] = useState('');
  const [actionProblem, setActionProblem] = useState<unknown>();
  const heading = useRef<HTMLHeadingElement>(null);

  const failed = (error: unknown) => {
    if (error instanceof ApiError && error.endsSignIn) onSignInEnded(error);
    return error;
  };

  useEffect(() => heading.current?.focus(), [formId]);

  useEffect(() => {
    const abort = new AbortController();
    api
      .get<{ title: string }>(`/forms/${encodeURIComponent(formId)}`, {}, abort.signal)
      .then((form) => setTitle(form.title))
      // The list below says what went wrong, if anything did: the title is a nicety.
      .catch(() => undefined);
    return () => abort.abort();
  }, [api, formId]);

  useEffect(() => {
    const abort = new AbortController();
    webhooks
      .list(abort.signal)
      .then((items) => setList({ state: 'loaded', value: items }))
      .catch((error: unknown) => abort.signal.aborted || setList({ state: 'failed', error: failed(error) }));
    return () => abort.abort();
  }, [webhooks, version]);

  const changed = (message: string) => {
    setNotice(message);
    setActionProblem(undefined);
    setVersion((current) => current + 1);
  };

  const save = (draft: WebhookDraft) => {
    const tag = editing?.webhook?.tag ?? draft.tag.trim();
    // PUT creates or replaces: a new webhook must not overwrite one of the same tag.
    if (!editing?.webhook && list.state === 'loaded' && list.value.some((webhook) => webhook.tag === tag)) {
      const taken = ApiError.inWords(409, 'TAG_TAKEN', 'webhooks.tagTaken', { tag });
      setEditing((current) => current && { ...current, problem: taken });
      return;
    }
    setEditing((current) => current && { ...current, saving: true, problem: undefined });
    webhooks
      .save(tag, bodyOf(draft))
      .then(() => {
        setEditing(undefined);
        changed(editing?.webhook ? t('webhooks.saved', { tag }) : t('webhooks.created', { tag }));
        // The editor, which held focus, is gone: back to the top of the screen.
        heading.current?.focus();
      })
      .catch((error: unknown) =>
        setEditing((current) => current && { ...current, saving: false, problem: failed(error) }),
      );
  };

  const toggle = (webhook: WebhookResource) => {
    setBusy(webhook.tag);
    webhooks
      .save(webhook.tag, { enabled: !webhook.enabled })
      .then((saved) =>
        changed(t(saved.enabled ? 'webhooks.turnedOn' : 'webhooks.turnedOff', { tag: saved.tag })),
      )
      .catch((error: unknown) => setActionProblem(failed(error)))
      .finally(() => setBusy(undefined));
  };

  const sendTest = (webhook: WebhookResource) => {
    setBusy(webhook.tag);
    webhooks
      .sendTest(webhook.tag)
      .then(() => changed(t('webhooks.testSent', { tag: webhook.tag })))
      .catch((error: unknown) => setActionProblem(failed(error)))
      .finally(() => setBusy(undefined));
  };

  const remove = (webhook: WebhookResource) => {
    setDeleting({ webhook, busy: true });
    webhooks
      .delete(webhook.tag)
      .then(() => {
        setDeleting(undefined);
        changed(t('webhooks.deleted', { tag: webhook.tag }));
        heading.current?.focus();
      })
      .catch((error: unknown) => {
        setDeleting(undefined);
        setActionProblem(failed(error));
      });
  };

  const count = list.state === 'loaded' ? list.value.length : undefined;
  return (
    <main id="main" class="webhooks-screen" tabIndex={-1}>
      <p>
        <a href={hashOf({ screen: 'forms' })}>{t('nav.backToForms')}</a>
      </p>
      <h1 ref={heading} tabIndex={-1}>
        {title ? t('webhooks.headingOf', { title }) : t('webhooks.heading')}
      </h1>
      <p class="summary" role="status">
        {notice ||
          (count === undefined
            ? list.state === 'loading'
              ? t('webhooks.loading')
              : ''
            : t('webhooks.count', { count }))}
      </p>
      {actionProblem !== undefined && <ProblemView error={actionProblem} />}
      {list.state === 'failed' && <ProblemView error={list.error} />}
      {!editing && (
        <button
          type="button"
          class="primary"
          onClick={() => {
            setNotice('');
            setEditing({ saving: false });
          }}
        >
          {t('webhooks.new')}
        </button>
      )}
      {editing && (
        <WebhookEditorView
          key={editing.webhook?.tag ?? 'new'}
          webhook={editing.webhook}
          saving={editing.saving}
          problem={editing.problem}
          onSave={save}
          onCancel={() => {
            setEditing(undefined);
            heading.current?.focus();
          }}
        />
      )}
      {deleting && (
        <ConfirmDeletionView
          question={t('webhooks.deleteQuestion', { tag: deleting.webhook.tag })}
          confirmLabel={t('webhooks.deleteConfirm', { tag: deleting.webhook.tag })}
          cancelLabel={t('forms.deleteCancel')}
          deleting={deleting.busy}
          onConfirm={() => remove(deleting.webhook)}
          onCancel={() => {
            setDeleting(undefined);
            heading.current?.focus();
          }}
        >
          {t('webhooks.deleteWhat')}
        </ConfirmDeletionView>
      )}
      {list.state === 'loaded' && (
        <WebhookListView
          webhooks={webhooks}
          items={list.value}
          version={version}
          busy={busy}
          onToggle={toggle}
          onTest={sendTest}
          onEdit={(webhook) => {
            setNotice('');
            setEditing({ webhook, saving: false });
          }}
          onDelete={(webhook) => setDeleting({ webhook, busy: false })}
        />
      )}
    </main>
  );
}
