import type { InsightsSummary } from '@formline/contracts';
import { useTexts } from './texts.context';

// Where respondents stop: per question, in the form's order, the responses
// that saw it and those that left after it, as a table.
export function InsightsDropoffView({ fields }: { fields: InsightsSummary['fields'] }) {
  const texts = useTexts();
  const { t } = texts;
  return (
    <section aria-labelledby="insights-dropoff">
      <h2 id="insights-dropoff">{t('insights.dropoff')}</h2>
      {fields.length === 0 ? (
        <p>{t('insights.noQuestions')}</p>
      ) : (
        <div class="table-scroll">
          <table class="insights">
            <caption class="visually-hidden">{t('insights.dropoffCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('insights.question')}</th>
                <th scope="col">{t('insights.views')}</th>
                <th scope="col">{t('insights.dropoffs')}</th>
              </tr>
            </thead>
            <tbody>
              {fields.map((field) => (
                <tr key={field.id}>
                  <th scope="row">{field.title || field.ref}</th>
                  <td>{texts.count(field.views)}</td>
                  <td>{texts.count(field.dropoffs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
