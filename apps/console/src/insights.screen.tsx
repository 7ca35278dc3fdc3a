import type { InsightsAnswers, InsightsSummary } from '@formline/contracts';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type ApiClient, ApiError } from './api.client';
import { AnswerDistributionView } from './answer-distribution.view';
import { hashOf } from './console.route';
import { InsightsApiClient } from './insights-api.client';
import { InsightsDropoffView } from './insights-dropoff.view';
import { InsightsFiguresView } from './insights-figures.view';
import { ProblemView } from './problem.view';
import { useTexts } from './texts.context';

interface Props {
  api: ApiClient;
  formId: string;
  onSignInEnded: (error: ApiError) => void;
}

type Loaded<T> = { state: 'loading' } | { state: 'failed'; error: unknown } | { state: 'loaded'; value: T };

// The Insights screen of one form: the summary's figures (responses, visits,
// completion rate, average time, and per platform), the drop-off per
// question, and the distribution of the answers of each question that has
// one. Two calls of the public API, each failing on its own in words.
export function InsightsScreen({ api, formId, onSignInEnded }: Props) {
  const { t } = useTexts();
  const insights = useMemo(() => new InsightsApiClient(api, formId), [api, formId]);
  const [summary, setSummary] = useState<Loaded<InsightsSummary>>({ state: 'loading' });
  const [answers, setAnswers] = useState<Loaded<InsightsAnswers>>({ state: 'loading' });
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => heading.current?.focus(), [formId]);

  useEffect(() => {
    const abort = new AbortController();
    const failed = (error: unknown) => {
      if (error instanceof ApiError && error.endsSignIn) onSignInEnded(error);
      return { state: 'failed', error } as const;
    };
    insights
      .summary(abort.signal)
      .then((value) => setSummary({ state: 'loaded', value }))
      .catch((error: unknown) => abort.signal.aborted || setSummary(failed(error)));
    insights
      .answers(abort.signal)
      .then((value) => setAnswers({ state: 'loaded', value }))
      .catch((error: unknown) => abort.signal.aborted || setAnswers(failed(error)));
    return () => abort.abort();
  }, [insights]);

  const loading = summary.state === 'loading' || answers.state === 'loading';
  return (
    <main id="main" class="insights-screen" tabIndex={-1}>
      <p>
        <a href={hashOf({ screen: 'forms' })}>{t('nav.backToForms')}</a>
      </p>
      <h1 ref={heading} tabIndex={-1}>
        {t('insights.heading')}
      </h1>
      <p class="summary" role="status">
        {loading ? t('insights.loading') : ''}
      </p>
      {summary.state === 'failed' && <ProblemView error={summary.error} />}
      {summary.state === 'loaded' && <InsightsFiguresView summary={summary.value.form} />}
      {summary.state === 'loaded' && <InsightsDropoffView fields={summary.value.fields} />}
      {answers.state === 'failed' && <ProblemView error={answers.error} />}
      {answers.state === 'loaded' && (
        <section aria-labelledby="insights-answers">
          <h2 id="insights-answers">{t('insights.answers')}</h2>
          <p class="hint">{t('insights.answersHint', { count: answers.value.form.responses_count })}</p>
          {answers.value.fields.length === 0 && <p>{t('insights.noAnswers')}</p>}
          {answers.value.fields.map((field) => (
            <AnswerDistributionView key={field.id} field={field} />
          ))}
        </section>
      )}
      <p>
        <a href={hashOf({ screen: 'results', formId, view: { filters: { state: 'completed' }, page: {} } })}>
          {t('insights.seeResponses')}
        </a>
      </p>
    </main>
  );
}
