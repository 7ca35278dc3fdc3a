import { type AnswersField, distributionOf } from './insights.format';

// One question's answers: a table of each answer, the responses giving it
// (in text) and a bar of its share drawn in CSS, hidden from screen readers,
// which read the count and the share instead. A number question shows its
// count and average only.
export function AnswerDistributionView({ field }: { field: AnswersField }) {
  const rows = distributionOf(field);
  const headingId = `answers-${field.id}`;
  const answered = `${field.answers_count} ${field.answers_count === 1 ? 'answer' : 'answers'}`;
  const average =
    field.average === undefined ? '' : `, average ${field.average === null ? 'none' : round(field.average)}`;
  return (
    <section class="distribution" aria-labelledby={headingId}>
      <h3 id={headingId}>{field.title || field.ref}</h3>
      <p class="meta">
        {answered}
        {average}
      </p>
      {rows.length > 0 && (
        <table class="insights answers">
          <caption class="visually-hidden">Answers to {field.title || field.ref}</caption>
          <thead>
            <tr>
              <th scope="col">Answer</th>
              <th scope="col">Responses</th>
              <th scope="col">Share</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={index}>
                <th scope="row">{row.label}</th>
                <td>{row.count}</td>
                <td class="share-cell">
                  <div>
                    <span class="answer-bar" aria-hidden="true">
                      <span style={{ width: `${row.percent}%` }} />
                    </span>
                    <span class="answer-percent">{row.percent}%</span>
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

function round(value: number): string {
  return String(Math.round(value * 10) / 10);
}
