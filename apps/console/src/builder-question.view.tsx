import type { FieldProblem } from './api.client';
import { BuilderChoicesView } from './builder-choices.view';
import { choiceTypes, type EditableQuestion, isEditedType, typeLabel } from './builder-form.mapper';
import { BuilderPropertiesView } from './builder-properties.view';
import { useTexts } from './texts.context';

interface Props {
  question: EditableQuestion;
  index: number;
  count: number;
  /** What the API refused of this question at the last save, its path made relative. */
  problems: FieldProblem[];
  onChange: (change: Partial<EditableQuestion>) => void;
  onMove: (delta: number) => void;
  onRemove: () => void;
  newKey: () => string;
  focusLater: (id: string) => void;
}

// One question: its title, description and "required", what its type adds,
// and the buttons that move it up or down the form and remove it. A type the
// builder has no inputs for (a group, a matrix, a payment…) keeps its title
// here and the rest in the JSON view.
export function BuilderQuestionView(props: Props) {
  const texts = useTexts();
  const { t } = texts;
  const { question, index, count, problems, onChange, onMove, onRemove } = props;
  const prefix = `q${index}`;
  const number = index + 1;
  const edited = isEditedType(question.type);
  const problemsId = `${prefix}-problems`;
  return (
    <li class="question" aria-labelledby={`${prefix}-heading`}>
      <h3 id={`${prefix}-heading`} tabIndex={-1}>
        {t('question.heading', { number, type: typeLabel(question.type, texts) })}
      </h3>
      {problems.length > 0 && (
        <ul id={problemsId} class="field-problem">
          {problems.map((problem) => (
            <li key={problem.field}>
              {problem.field ? `${problem.field}: ` : ''}
              {problem.description}
            </li>
          ))}
        </ul>
      )}
      <div class="field">
        <label for={`${prefix}-title`}>
          {question.type === 'statement' ? t('question.text') : t('insights.question')}
        </label>
        <input
          id={`${prefix}-title`}
          type="text"
          maxLength={4000}
          value={question.title}
          aria-describedby={problems.length > 0 ? problemsId : undefined}
          aria-invalid={problems.length > 0 ? true : undefined}
          onInput={(event) => onChange({ title: event.currentTarget.value })}
        />
      </div>
      {edited && (
        <div class="field">
          <label for={`${prefix}-description`}>{t('question.description')}</label>
          <textarea
            id={`${prefix}-description`}
            rows={2}
            maxLength={4000}
            value={question.description}
            onInput={(event) => onChange({ description: event.currentTarget.value })}
          />
        </div>
      )}
      {edited && question.type !== 'statement' && (
        <label class="check">
          <input
            type="checkbox"
            checked={question.required}
            onChange={(event) => onChange({ required: event.currentTarget.checked })}
          />
          {t('question.required')}
        </label>
      )}
      {edited && <BuilderPropertiesView question={question} prefix={prefix} onChange={onChange} />}
      {edited && choiceTypes.includes(question.type) && (
        <BuilderChoicesView
          question={question}
          prefix={prefix}
          onChange={onChange}
          newKey={props.newKey}
          focusLater={props.focusLater}
        />
      )}
      {!edited && <p class="hint">{t('question.inJson')}</p>}
      <p class="row-actions">
        <button type="button" id={`${prefix}-up`} disabled={index === 0} onClick={() => onMove(-1)}>
          {t('row.moveUp')}
          <span class="visually-hidden">{t('question.which', { number })}</span>
        </button>
        <button type="button" id={`${prefix}-down`} disabled={index === count - 1} onClick={() => onMove(1)}>
          {t('row.moveDown')}
          <span class="visually-hidden">{t('question.which', { number })}</span>
        </button>
        <button type="button" class="danger" onClick={onRemove}>
          {t('row.remove')}
          <span class="visually-hidden">{t('question.which', { number })}</span>
        </button>
      </p>
    </li>
  );
}
