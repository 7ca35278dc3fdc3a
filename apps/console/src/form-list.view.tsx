import { useEffect, useState } from 'preact/hooks';
import { hashOf } from './console.route';

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
    const said = `Copied the share link of “${form.title || 'Untitled form'}”.`;
    // Not there at all outside a secure context (an http:// address other than localhost).
    if (!navigator.clipboard) {
      setCopied('The browser gives no clipboard here: select the link and copy it yourself.');
      return;
    }
    navigator.clipboard
      .writeText(link)
      // The same sentence twice would not be announced again: a copy after a copy says so anew.
      .then(() => setCopied((current) => (current === said ? `${said} ` : said)))
      .catch(() => setCopied('The browser refused the clipboard: select the link and copy it yourself.'));
  };
  return (
    <>
      <ul class="forms">
        {forms.map((form) => {
          const link = form._links?.display ?? `${location.origin}/to/${encodeURIComponent(form.id)}`;
          const title = form.title || 'Untitled form';
          const titleId = `form-${form.id}-title`;
          const busy = busyId === form.id;
          return (
            <li key={form.id} aria-labelledby={titleId}>
              <h3 id={titleId} tabIndex={-1}>
                {title}
              </h3>
              {form.last_updated_at && (
                <p class="meta">Last changed {new Date(form.last_updated_at).toLocaleString()}</p>
              )}
              <p class="share">
                <span class="share-label" id={`form-${form.id}-link`}>
                  Share link
                </span>
                <a
                  href={link}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-describedby={`form-${form.id}-link`}
                >
                  {link}
                  <span class="visually-hidden"> (the page of {title} for respondents, new tab)</span>
                </a>
                <button type="button" onClick={() => copy(form, link)}>
                  Copy link<span class="visually-hidden"> of {title}</span>
                </button>
              </p>
              <p class="links">
                <a href={hashOf({ screen: 'builder', formId: form.id })}>
                  Edit<span class="visually-hidden"> {title}</span>
                </a>
                <a
                  href={hashOf({
                    screen: 'results',
                    formId: form.id,
                    view: { filters: { state: 'completed' }, page: {} },
                  })}
                >
                  Results<span class="visually-hidden"> of {title}</span>
                </a>
                <a href={hashOf({ screen: 'insights', formId: form.id })}>
                  Insights<span class="visually-hidden"> of {title}</span>
                </a>
                <a href={hashOf({ screen: 'webhooks', formId: form.id })}>
                  Webhooks<span class="visually-hidden"> of {title}</span>
                </a>
              </p>
              <div class="actions">
                {/* Waiting, not disabled: a disabled button would drop the focus it holds. */}
                <button type="button" aria-disabled={busy} onClick={() => busy || onDuplicate(form)}>
                  Duplicate<span class="visually-hidden"> {title}</span>
                </button>
                <button type="button" aria-disabled={busy} onClick={() => busy || onDelete(form)}>
                  Delete<span class="visually-hidden"> {title}</span>
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
