import { useState } from 'preact/hooks';
import type { TextKey } from './console.texts';
import type { Question } from './response.format';
import { checkedFilters, type ResponseState, type ResultsFilters } from './results-filter.route';
import { useTexts } from './texts.context';

interface Props {
  filters: ResultsFilters;
  questions: Question[];
  onApply: (filters: ResultsFilters) => void;
}

const stateLabels: Record<ResponseState, TextKey> = {
  completed: 'filters.completed',
  partial: 'filters.partial',
  all: 'filters.all',
};

// The Results screen's filters, as the Responses API takes them: search
// text, the first and last day, completed or partial, a question answered.
// Sent on asking (Show, or Enter in a field), never at each key: each change
// is an address of its own, kept in the browser's history.
export function ResultsFilterView({ filters, questions, onApply }: Props) {
  const texts = useTexts();
  const { t } = texts;
  const [typed, setTyped] = useState<ResultsFilters>(filters);
  const [problem, setProblem] = useState('');
  const set = (change: Partial<ResultsFilters>) => setTyped((current) => ({ ...current, ...change }));
  return (
    <form
      class="filters"
      aria-labelledby="filters-title"
      onSubmit={(event) => {
        event.preventDefault();
        const checked = checkedFilters(typed, texts);
        if (!checked.ok) return setProblem(checked.message);
        setProblem('');
        onApply(checked.filters);
      }}
    >
      <h2 id="filters-title" class="visually-hidden">
        {t('filters.heading')}
      </h2>
      <div class="field grow">
        <label for="results-query">{t('filters.query')}</label>
        <input
          id="results-query"
          type="search"
          maxLength={200}
          value={typed.query ?? ''}
          onInput={(event) => set({ query: event.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label for="results-since">{t('filters.since')}</label>
        <input
          id="results-since"
          type="date"
          value={typed.since ?? ''}
          onInput={(event) => set({ since: event.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label for="results-until">{t('filters.until')}</label>
        <input
          id="results-until"
          type="date"
          value={typed.until ?? ''}
          onInput={(event) => set({ until: event.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label for="results-state">{t('insights.responses')}</label>
        <select
          id="results-state"
          value={typed.state}
          onChange={(event) => set({ state: event.currentTarget.value as ResponseState })}
        >
          {(Object.keys(stateLabels) as ResponseState[]).map((state) => (
            <option key={state} value={state}>
              {t(stateLabels[state])}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="results-answered">{t('filters.answered')}</label>
        <select
          id="results-answered"
          value={typed.answered ?? ''}
          onChange={(event) => set({ answered: event.currentTarget.value || undefined })}
        >
          <option value="">{t('filters.anyQuestion')}</option>
          {questions.map((question) => (
            <option key={question.id} value={question.id}>
              {question.title}
            </option>
          ))}
        </select>
      </div>
      <div class="filter-actions">
        <button type="submit" class="primary">
          {t('filters.show')}
        </button>
        <button
          type="button"
          onClick={() => {
            setTyped({ state: 'completed' });
            setProblem('');
            onApply({ state: 'completed' });
          }}
        >
          {t('filters.clear')}
        </button>
      </div>
      {problem && (
        <p class="field-problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
