import { useState } from 'preact/hooks';
import type { FieldProblem } from './api.client';
import {
  type EditableQuestion,
  moved,
  newQuestion,
  type QuestionType,
  questionTypes,
} from './builder-form.mapper';
import { BuilderQuestionView } from './builder-question.view';
import { useTexts } from './texts.context';

interface Props {
  questions: EditableQuestion[];
  /** The API's refusals of the last save, by question key. */
  problems: Record<string, FieldProblem[]>;
  onChange: (questions: EditableQuestion[]) => void;
  newKey: () => string;
  focusLater: (id: string) => void;
}

// The form's questions in order, each editable, and a type to add at the end.
// Focus follows what was done: to a new question's text, to a moved
// question's button, to the question after one removed.
export function BuilderQuestionsView({ questions, problems, onChange, newKey, focusLater }: Props) {
  const texts = useTexts();
  const { t } = texts;
  const [adding, setAdding] = useState<QuestionType>('short_text');
  const move = (index: number, delta: number) => {
    onChange(moved(questions, index, delta));
    const target = index + delta;
    const edge = target === 0 ? 'down' : target === questions.length - 1 ? 'up' : delta < 0 ? 'up' : 'down';
    focusLater(`q${target}-${edge}`);
  };
  return (
    <section aria-labelledby="builder-questions">
      <h2 id="builder-questions" tabIndex={-1}>
        {t('builder.questions')}
      </h2>
      {questions.length === 0 && <p>{t('builder.noQuestions')}</p>}
      <ol class="questions">
        {questions.map((question, index) => (
          <BuilderQuestionView
            key={question.key}
            question={question}
            index={index}
            count={questions.length}
            problems={problems[question.key] ?? []}
            onChange={(change) =>
              onChange(questions.map((item, at) => (at === index ? { ...item, ...change } : item)))
            }
            onMove={(delta) => move(index, delta)}
            onRemove={() => {
              onChange(questions.filter((_, at) => at !== index));
              const next = Math.min(index, questions.length - 2);
              focusLater(next >= 0 ? `q${next}-heading` : 'builder-questions');
            }}
            newKey={newKey}
            focusLater={focusLater}
          />
        ))}
      </ol>
      <form
        class="add-question"
        onSubmit={(event) => {
          event.preventDefault();
          onChange([...questions, newQuestion(adding, newKey, texts)]);
          focusLater(`q${questions.length}-title`);
        }}
      >
        <div class="field">
          <label for="add-question-type">{t('builder.newType')}</label>
          <select
            id="add-question-type"
            value={adding}
            onChange={(event) => setAdding(event.currentTarget.value as QuestionType)}
          >
            {questionTypes.map(({ type, label }) => (
              <option key={type} value={type}>
                {t(label)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">{t('builder.addQuestion')}</button>
      </form>
    </section>
  );
}
