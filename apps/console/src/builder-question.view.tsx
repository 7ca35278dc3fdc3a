import type { FieldProblem } from './api.client';
import { BuilderChoicesView } from './builder-choices.view';
import { choiceTypes, type EditableQuestion, isEditedType, typeLabel } from './builder-form.mapper';
import { BuilderPropertiesView } from './builder-properties.view';

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
  const { question, index, count, problems, onChange, onMove, onRemove } = props;
  const prefix = `q${index}`;
  const number = index + 1;
  const edited = isEditedType(question.type);
  const problemsId = `${prefix}-problems`;
  return (
    <li class="question" aria-labelledby={`${prefix}-heading`}>
      <h3 id={`${prefix}-heading`} tabIndex={-1}>
        {number}. {typeLabel(question.type)}
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
        <label for={`${prefix}-title`}>{question.type === 'statement' ? 'Text' : 'Question'}</label>
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
          <label for={`${prefix}-description`}>Description</label>
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
          Required
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
      {!edited && <p class="hint">The rest of this question is edited in the JSON view.</p>}
      <p class="row-actions">
        <button type="button" id={`${prefix}-up`} disabled={index === 0} onClick={() => onMove(-1)}>
          Move up<span class="visually-hidden"> question {number}</span>
        </button>
        <button type="button" id={`${prefix}-down`} disabled={index === count - 1} onClick={() => onMove(1)}>
          Move down<span class="visually-hidden"> question {number}</span>
        </button>
        <button type="button" class="danger" onClick={onRemove}>
          Remove<span class="visually-hidden"> question {number}</span>
        </button>
      </p>
    </li>
  );
}
