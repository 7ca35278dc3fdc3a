import { useEffect, useState } from 'preact/hooks';
import { hashOf } from './console.route';
import { useTexts } from './texts.context';

/** What the console reads of an item of GET /forms. */
export interface ListedForm {
  id: string;
  title: string;
  last_updated_at?: string;
  _links?: { display?: string };
}

interface Props {
  forms: ListedForm[];
  /** A form being duplicated or asked about: its buttons wait. */
  busyId?: string;
  /** A form just made (created or copied): focus goes to its title once it shows. */
  focusId?: string;
  onFocused: () => void;
  onDuplicate: (form: ListedForm) => void;
  onDelete: (form: ListedForm) => void;
}

// The forms found, each with its share link (`_links.display`, the form's
// page for respondents, `/to/{form_id}`) as a link that opens that page and
// a button that copies it; links to edit the form and to its results,
// insights and webhooks; and buttons to duplicate and delete it.
export function FormListView({ forms, busyId, focusId, onFocused, onDuplicate, onDelete }: Props) {
  const texts = useTexts();
  const { t } = texts;
  const [copied, setCopied] = useState('');
  // By its id, once the list read again holds it (a new form is not there before).
  useEffect(() => {
    const heading = focusId ? document.getElementById(`form-${focusId}-title`) : null;
    if (heading) {
      heading.focus();
      onFocused();
    }
  }, [focusId, forms]);

  const copy = (form: ListedForm, link: string) => {
    const said = t('list.copied', { title: form.title || t('form.untitled') });
    // Not there at all outside a secure context (an http:// address other than localhost).
    if (!navigator.clipboard) {
      setCopied(t('list.noClipboard'));
      return;
    }
    navigator.clipboard
      .writeText(link)
      // The same sentence twice would not be announced again: a copy after a copy says so anew.
      .then(() => setCopied((current) => (current === said ? `${said} ` : said)))
      .catch(() => setCopied(t('list.clipboardRefused')));
  };
  return (
    <>
      <ul class="forms">
        {forms.map((form) => {
          const link = form._links?.display ?? `${location.origin}/to/${encodeURIComponent(form.id)}`;
          const title = form.title || t('form.untitled');
          const titleId = `form-${form.id}-title`;
          const busy = busyId === form.id;
          return (
            <li key={form.id} aria-labelledby={titleId}>
              <h3 id={titleId} tabIndex={-1}>
                {title}
              </h3>
              {form.last_updated_at && (
                <p class="meta">{t('list.lastChanged', { when: texts.dateTime(form.last_updated_at) })}</p>
              )}
              <p class="share">
                <span class="share-label" id={`form-${form.id}-link`}>
                  {t('list.shareLink')}
                </span>
                <a
                  href={link}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-describedby={`form-${form.id}-link`}
                >
                  {link}
                  <span class="visually-hidden">{t('list.sharePage', { title })}</span>
                </a>
                <button type="button" onClick={() => copy(form, link)}>
                  {t('list.copyLink')}
                  <span class="visually-hidden">{t('list.ofTitle', { title })}</span>
                </button>
              </p>
              <p class="links">
                <a href={hashOf({ screen: 'builder', formId: form.id })}>
                  {t('list.edit')}
                  <span class="visually-hidden">{t('list.theTitle', { title })}</span>
                </a>
                <a
                  href={hashOf({
                    screen: 'results',
                    formId: form.id,
                    view: { filters: { state: 'completed' }, page: {} },
                  })}
                >
                  {t('list.results')}
                  <span class="visually-hidden">{t('list.ofTitle', { title })}</span>
                </a>
                <a href={hashOf({ screen: 'insights', formId: form.id })}>
                  {t('list.insights')}
                  <span class="visually-hidden">{t('list.ofTitle', { title })}</span>
                </a>
                <a href={hashOf({ screen: 'webhooks', formId: form.id })}>
                  {t('list.webhooks')}
                  <span class="visually-hidden">{t('list.ofTitle', { title })}</span>
                </a>
              </p>
              <div class="actions">
                {/* Waiting, not disabled: a disabled button would drop the focus it holds. */}
                <button type="button" aria-disabled={busy} onClick={() => busy || onDuplicate(form)}>
                  {t('list.duplicate')}
                  <span class="visually-hidden">{t('list.theTitle', { title })}</span>
                </button>
                <button type="button" aria-disabled={busy} onClick={() => busy || onDelete(form)}>
                  {t('list.delete')}
                  <span class="visually-hidden">{t('list.theTitle', { title })}</span>
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      <p class="visually-hidden" role="status">
        {copied}
      </p>
    </>
  );
}
