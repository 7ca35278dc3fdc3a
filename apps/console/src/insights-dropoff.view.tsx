import type { InsightsSummary } from '@formline/contracts';

// Where respondents stop: per question, in the form's order, the responses
// that saw it and those that left after it, as a table.
export function InsightsDropoffView({ fields }: { fields: InsightsSummary['fields'] }) {
  return (
    <section aria-labelledby="insights-dropoff">
      <h2 id="insights-dropoff">Drop-off by question</h2>
      {fields.length === 0 ? (
        <p>This form has no questions.</p>
      ) : (
        <div class="table-scroll">
          <table class="insights">
            <caption class="visually-hidden">Views and drop-offs per question</caption>
            <thead>
              <tr>
                <th scope="col">Question</th>
                <th scope="col">Views</th>
                <th scope="col">Drop-offs</th>
              </tr>
            </thead>
            <tbody>
              {fields.map((field) => (
                <tr key={field.id}>
                  <th scope="row">{field.title || field.ref}</th>
                  <td>{field.views}</td>
                  <td>{field.dropoffs}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
