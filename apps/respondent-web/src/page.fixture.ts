import type { Field, FormDefinition } from '@formline/form-definition';
import type { PageData, PageTexts } from '@formline/form-logic';
import type { PageEnvironment } from './respondent-page.app';

// Forms, page data and a browser's surroundings for the page's unit specs,
// which run in Jest's DOM (jsdom): the English texts, a form of the given
// blocks, and storage, address and network that the spec holds.

export const field = (ref: string, type: Field['type'], extra: Partial<Field> = {}): Field => ({
  id: `id-${ref}`,
  ref,
  title: `Title of ${ref}`,
  type,
  properties: {},
  ...extra,
});

export const choices = (...refs: string[]) =>
  refs.map((ref) => ({ id: `c-${ref}`, ref, label: ref.toUpperCase() }));

export function formOf(fields: Field[], extra: Partial<FormDefinition> = {}): FormDefinition {
  return {
    title: 'A form',
    language: 'en',
    fields,
    hidden: [],
    variables: { score: 0, price: 0 },
    welcome_screens: [],
    thankyou_screens: [
      { id: 'end', ref: 'default_tys', title: 'Thanks!', type: 'thankyou_screen', properties: {} },
    ],
    logic: [],
    settings: {},
    cui_settings: {},
    ...extra,
  };
}

export function pageData(form: FormDefinition, texts: PageTexts): PageData {
  return {
    formId: 'f1',
    form,
    submitUrl: 'https://us.example/forms/f1/submissions',
    texts,
    images: {},
  };
}

/** A page in the document's body, with a storage, an address and a network the spec sees. */
export function environment(options: { search?: string; fetch?: typeof fetch } = {}) {
  document.body.innerHTML = '<main id="app"></main><div id="live"></div>';
  const stored = new Map<string, string>();
  const assigned: string[] = [];
  const env: PageEnvironment = {
    app: document.getElementById('app')!,
    live: document.getElementById('live')!,
    location: {
      search: options.search ?? '',
      assign: (url: string | URL) => void assigned.push(String(url)),
      reload: () => undefined,
    },
    storage: {
      getItem: (key) => stored.get(key) ?? null,
      setItem: (key, value) => void stored.set(key, value),
      removeItem: (key) => void stored.delete(key),
    },
    fetch: options.fetch ?? (() => Promise.reject(new Error('no network in this spec'))),
  };
  return { env, stored, assigned };
}
