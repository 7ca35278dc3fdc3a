import { useState } from 'preact/hooks';
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
}

// The forms found, each with its share link (`_links.display`, the form's
// page for respondents, `/to/{form_id}`), a button that copies it, a link
// that opens the page in a new tab, and links to the form's results, insights
// and webhooks.
export function FormListView({ forms }: Props) {
  const [copied, setCopied] = useState('');
  const copy = (form: ListedForm, link: string) => {
    navigator.clipboard
      .writeText(link)
      .then(() => setCopied(`The share link of “${form.title}” is copied.`))
      .catch(() => setCopied('The browser did not let the console copy: select the link and copy it.'));
  };
  return (
    <>
      <ul class="forms">
        {forms.map((form) => {
          const link = form._links?.display ?? `${location.origin}/to/${encodeURIComponent(form.id)}`;
          const titleId = `form-${form.id}-title`;
          return (
            <li key={form.id} aria-labelledby={titleId}>
              <h3 id={titleId}>{form.title || 'Untitled form'}</h3>
              {form.last_updated_at && (
                <p class="meta">Last changed {new Date(form.last_updated_at).toLocaleString()}</p>
              )}
              <div class="share">
                <label for={`form-${form.id}-link`}>Share link</label>
                <input id={`form-${form.id}-link`} type="text" readOnly value={link} />
                <button type="button" onClick={() => copy(form, link)}>
                  Copy<span class="visually-hidden"> the share link of {form.title}</span>
                </button>
              </div>
              <p class="links">
                <a href={link} target="_blank" rel="noopener noreferrer">
                  Open the form's page<span class="visually-hidden"> for {form.title} (new tab)</span>
                </a>
                <a
                  href={hashOf({
                    screen: 'results',
                    formId: form.id,
                    view: { filters: { state: 'completed' }, page: {} },
                  })}
                >
                  Results<span class="visually-hidden"> of {form.title}</span>
                </a>
                <a href={hashOf({ screen: 'insights', formId: form.id })}>
                  Insights<span class="visually-hidden"> of {form.title}</span>
                </a>
                <a href={hashOf({ screen: 'webhooks', formId: form.id })}>
                  Webhooks<span class="visually-hidden"> of {form.title}</span>
                </a>
              </p>
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
