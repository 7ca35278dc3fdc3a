import type { PageData } from '@formline/form-logic';
import { type PageEnvironment, RespondentPage } from './respondent-page.app';

// The page's script, as the bundle runs it: the page's data from the JSON
// block the server wrote, the page in the document's elements, the partial
// responses flushed when the respondent leaves, and Enter on the welcome
// screen starting wherever the focus is.

function storage(): PageEnvironment['storage'] {
  try {
    return window.localStorage;
  } catch {
    return undefined; // storage refused (private browsing): the page works without it
  }
}

export function startPage(document: Document): RespondentPage {
  const data = JSON.parse(document.getElementById('form-data')!.textContent) as PageData;
  const app = document.getElementById('app')!;
  const page = new RespondentPage(data, {
    app,
    live: document.getElementById('live')!,
    location: window.location,
    storage: storage(),
    fetch: (input, init) => fetch(input, init),
  });
  window.addEventListener('pagehide', () => page.partials.flush());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') page.partials.flush();
  });
  document.addEventListener('keydown', (event) => {
    if (
      event.key === 'Enter' &&
      app.querySelector('.welcome') &&
      !(event.target instanceof HTMLButtonElement)
    ) {
      app.querySelector<HTMLButtonElement>('.welcome button')?.click();
    }
  });
  document.documentElement.classList.add('js');
  page.render();
  return page;
}

startPage(document);
