import type { FormDefinition } from '@formline/form-definition';
import type { PageTexts } from '@formline/form-logic';
import type { ControlContext } from './page.context';
import { ProgressStore } from './progress.store';
import { RespondentSession } from './respondent.session';

/** What a control needs, for a control's unit spec: no answers kept yet, a live region in the document. */
export function controlContext(form: FormDefinition, t: PageTexts): ControlContext {
  document.body.innerHTML = '<div id="live"></div>';
  return {
    t,
    session: new RespondentSession(form, t, new ProgressStore('f1', false, undefined), ''),
    images: {},
    submitUrl: 'https://us.example/forms/f1/submissions',
    live: document.getElementById('live')!,
    settings: {},
  };
}
