import { useState } from 'preact/hooks';
import type { Question } from './response.format';
import { checkedFilters, type ResponseState, type ResultsFilters } from './results-filter.route';

interface Props {
  filters: ResultsFilters;
  questions: Question[];
  onApply: (filters: ResultsFilters) => void;
}

const stateLabels: Record<ResponseState, string> = {
  completed: 'Completed',
  partial: 'Partial (not submitted)',
  all: 'All',
};

// The Results screen's filters, as the Responses API takes them: search
// text, the first and last day, completed or partial, a question answered.
// Sent on asking (Show, or Enter in a field), never at each key: each change
// is an address of its own, kept in the browser's history.
export function ResultsFilterView({ filters, questions, onApply }: Props) {
  const [typed, setTyped] = useState<ResultsFilters>(filters);
  const [problem, setProblem] = useState('');
  const set = (change: Partial<ResultsFilters>) => setTyped((current) => ({ ...current, ...change }));
  return (
    <form
      class="filters"
      aria-labelledby="filters-title"
      onSubmit={(event) => {
        event.preventDefault();
        const checked = checkedFilters(typed);
        if (!checked.ok) return setProblem(checked.message);
        setProblem('');
        onApply(checked.filters);
      }}
    >
      <h2 id="filters-title" class="visually-hidden">
        Filters
      </h2>
      <div class="field grow">
        <label for="results-query">Search the answers</label>
        <input
          id="results-query"
          type="search"
          maxLength={200}
          value={typed.query ?? ''}
          onInput={(event) => set({ query: event.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label for="results-since">First day</label>
        <input
          id="results-since"
          type="date"
          value={typed.since ?? ''}
          onInput={(event) => set({ since: event.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label for="results-until">Last day</label>
        <input
          id="results-until"
          type="date"
          value={typed.until ?? ''}
          onInput={(event) => set({ until: event.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label for="results-state">Responses</label>
        <select
          id="results-state"
          value={typed.state}
          onChange={(event) => set({ state: event.currentTarget.value as ResponseState })}
        >
          {(Object.keys(stateLabels) as ResponseState[]).map((state) => (
            <option key={state} value={state}>
              {stateLabels[state]}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="results-answered">Answered the question</label>
        <select
          id="results-answered"
          value={typed.answered ?? ''}
          onChange={(event) => set({ answered: event.currentTarget.value || undefined })}
        >
          <option value="">Any question</option>
          {questions.map((question) => (
            <option key={question.id} value={question.id}>
              {question.title}
            </option>
          ))}
        </select>
      </div>
      <div class="filter-actions">
        <button type="submit" class="primary">
          Show
        </button>
        <button
          type="button"
          onClick={() => {
            setTyped({ state: 'completed' });
            setProblem('');
            onApply({ state: 'completed' });
          }}
        >
          Clear the filters
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
