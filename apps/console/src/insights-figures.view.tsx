import type { InsightsSummary } from '@formline/contracts';
import { durationInWords, platformInWords, rateInWords } from './insights.format';

type Figures = InsightsSummary['form']['summary'];

// The summary's figures for the whole form, as labelled figures (a term and
// its value), then the same figures per platform as a table.
export function InsightsFiguresView({ summary }: { summary: InsightsSummary['form'] }) {
  const { summary: all, platforms } = summary;
  return (
    <section aria-labelledby="insights-figures">
      <h2 id="insights-figures">Summary</h2>
      <dl class="figures">
        <Figure term="Responses" value={String(all.responses_count)} />
        <Figure term="Visits" value={String(all.total_visits)} />
        <Figure term="Completion rate" value={rateInWords(all.completion_rate)} />
        <Figure term="Average time" value={durationInWords(all.average_time, all.responses_count)} />
      </dl>
      <div class="table-scroll">
        <table class="insights">
          <caption>By platform</caption>
          <thead>
            <tr>
              <th scope="col">Platform</th>
              <th scope="col">Responses</th>
              <th scope="col">Visits</th>
              <th scope="col">Completion rate</th>
              <th scope="col">Average time</th>
            </tr>
          </thead>
          <tbody>
            {platforms.map((row) => (
              <PlatformRow key={row.platform} name={platformInWords(row.platform)} figures={row} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Figure({ term, value }: { term: string; value: string }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
}

function PlatformRow({ name, figures }: { name: string; figures: Figures }) {
  return (
    <tr>
      <th scope="row">{name}</th>
      <td>{figures.responses_count}</td>
      <td>{figures.total_visits}</td>
      <td>{rateInWords(figures.completion_rate)}</td>
      <td>{durationInWords(figures.average_time, figures.responses_count)}</td>
    </tr>
  );
}
