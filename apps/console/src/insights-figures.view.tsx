import type { InsightsSummary } from '@formline/contracts';
import { durationInWords, platformInWords, rateInWords } from './insights.format';
import { useTexts } from './texts.context';

type Figures = InsightsSummary['form']['summary'];

// The summary's figures for the whole form, as labelled figures (a term and
// its value), then the same figures per platform as a table.
export function InsightsFiguresView({ summary }: { summary: InsightsSummary['form'] }) {
  const texts = useTexts();
  const { t } = texts;
  const { summary: all, platforms } = summary;
  return (
    <section aria-labelledby="insights-figures">
      <h2 id="insights-figures">{t('insights.summary')}</h2>
      <dl class="figures">
        <Figure term={t('insights.responses')} value={texts.count(all.responses_count)} />
        <Figure term={t('insights.visits')} value={texts.count(all.total_visits)} />
        <Figure term={t('insights.completionRate')} value={rateInWords(all.completion_rate, texts)} />
        <Figure
          term={t('insights.averageTime')}
          value={durationInWords(all.average_time, all.responses_count, texts)}
        />
      </dl>
      <div class="table-scroll">
        <table class="insights">
          <caption>{t('insights.byPlatform')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('insights.platform')}</th>
              <th scope="col">{t('insights.responses')}</th>
              <th scope="col">{t('insights.visits')}</th>
              <th scope="col">{t('insights.completionRate')}</th>
              <th scope="col">{t('insights.averageTime')}</th>
            </tr>
          </thead>
          <tbody>
            {platforms.map((row) => (
              <PlatformRow key={row.platform} name={platformInWords(row.platform, texts)} figures={row} />
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
  const texts = useTexts();
  return (
    <tr>
      <th scope="row">{name}</th>
      <td>{texts.count(figures.responses_count)}</td>
      <td>{texts.count(figures.total_visits)}</td>
      <td>{rateInWords(figures.completion_rate, texts)}</td>
      <td>{durationInWords(figures.average_time, figures.responses_count, texts)}</td>
    </tr>
  );
}
