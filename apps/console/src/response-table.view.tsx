import { type ConsoleTexts, englishTexts } from './console.texts';
import {
  answerInWords,
  answersById,
  type Question,
  type ResponseItem,
  responseTypeInWords,
  wasSubmitted,
} from './response.format';
import { useTexts } from './texts.context';

interface Props {
  questions: Question[];
  responses: ResponseItem[];
  selected: ReadonlySet<string>;
  onSelect: (token: string, selected: boolean) => void;
  onSelectAll: (selected: boolean) => void;
  /** Where each response opens whole (the address with its token). */
  openHref: (token: string) => string;
}

/** A response's short name: the start of its token, as the table and the response view show it. */
export const shortName = (token: string) => token.slice(0, 8);

export const submittedInWords = (response: ResponseItem, texts: ConsoleTexts = englishTexts) =>
  wasSubmitted(response) ? texts.dateTime(response.submitted_at) : texts.t('response.notSubmitted');

// A page of responses as a table: a row a response (its name opens it
// whole, a box selects it), its submitted time and state, then a column a
// question of the form with the answer in words. Wider than the screen, it
// scrolls sideways inside its own region (reachable by keyboard), never the page.
export function ResponseTableView({
  questions,
  responses,
  selected,
  onSelect,
  onSelectAll,
  openHref,
}: Props) {
  const texts = useTexts();
  const { t } = texts;
  const all = responses.length > 0 && responses.every((response) => selected.has(response.token));
  return (
    <div class="table-scroll" role="region" aria-labelledby="responses-caption" tabIndex={0}>
      <table class="responses">
        <caption id="responses-caption">{t('table.caption')}</caption>
        <thead>
          <tr>
            <th scope="col" class="select">
              <input
                type="checkbox"
                aria-label={t('table.selectAll')}
                checked={all}
                disabled={responses.length === 0}
                onChange={(event) => onSelectAll(event.currentTarget.checked)}
              />
            </th>
            <th scope="col">{t('table.response')}</th>
            <th scope="col">{t('table.submitted')}</th>
            <th scope="col">{t('table.state')}</th>
            {questions.map((question) => (
              <th scope="col" key={question.id}>
                {question.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {responses.map((response) => {
            const answers = answersById(response);
            const name = shortName(response.token);
            return (
              <tr key={response.token}>
                <td class="select">
                  <input
                    type="checkbox"
                    aria-label={t('table.select', { name })}
                    checked={selected.has(response.token)}
                    onChange={(event) => onSelect(response.token, event.currentTarget.checked)}
                  />
                </td>
                <th scope="row">
                  <a href={openHref(response.token)} aria-label={t('table.open', { name })}>
                    {name}
                  </a>
                </th>
                <td>{submittedInWords(response, texts)}</td>
                <td>{responseTypeInWords(response.response_type, texts)}</td>
                {questions.map((question) => (
                  <td key={question.id}>{answerInWords(answers.get(question.id), question, texts)}</td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
