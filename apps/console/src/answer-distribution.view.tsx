import { type AnswersField, distributionOf } from './insights.format';
import { useTexts } from './texts.context';

// One question's answers: a table of each answer, the responses giving it
// (in text) and a bar of its share drawn in CSS, hidden from screen readers,
// which read the count and the share instead. A number question shows its
// count and average only.
export function AnswerDistributionView({ field }: { field: AnswersField }) {
  const texts = useTexts();
  const { t } = texts;
  const rows = distributionOf(field, texts);
  const headingId = `answers-${field.id}`;
  const answered = t('insights.answerCount', { count: field.answers_count });
  const average =
    field.average === undefined
      ? ''
      : field.average === null
        ? t('insights.noAverage')
        : t('insights.average', { average: round(field.average) });
  return (
    <section class="distribution" aria-labelledby={headingId}>
      <h3 id={headingId}>{field.title || field.ref}</h3>
      <p class="meta">
        {answered}
        {average}
      </p>
      {rows.length > 0 && (
        <table class="insights answers">
          <caption class="visually-hidden">
            {t('insights.answersTo', { title: field.title || field.ref })}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t('insights.answer')}</th>
              <th scope="col">{t('insights.responses')}</th>
              <th scope="col">{t('insights.share')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={index}>
                <th scope="row">{row.label}</th>
                <td>{texts.count(row.count)}</td>
                <td class="share-cell">
                  <div>
                    <span class="answer-bar" aria-hidden="true">
                      <span style={{ width: `${row.percent}%` }} />
                    </span>
                    <span class="answer-percent">{t('insights.rate', { rate: row.percent })}</span>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
