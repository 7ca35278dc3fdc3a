import { type EditableChoice, type EditableQuestion, moved } from './builder-form.mapper';
import { useTexts } from './texts.context';

interface Props {
  question: EditableQuestion;
  /** The question's place, for unique ids and names in words. */
  prefix: string;
  onChange: (change: Partial<EditableQuestion>) => void;
  newKey: () => string;
  /** Moves focus to an element by id once the list has re-rendered. */
  focusLater: (id: string) => void;
}

// A multiple choice's or a dropdown's choices: each label typed, moved up or
// down by buttons (no dragging, so the keyboard does it all), removed, and a
// choice added at the end; a multiple choice's two switches beside them.
export function BuilderChoicesView({ question, prefix, onChange, newKey, focusLater }: Props) {
  const { t } = useTexts();
  const { choices } = question;
  const setChoices = (next: EditableChoice[]) => onChange({ choices: next });
  const move = (index: number, delta: number) => {
    setChoices(moved(choices, index, delta));
    const target = index + delta;
    // Focus follows the choice; at an end of the list, to the button still usable.
    const edge = target === 0 ? 'down' : target === choices.length - 1 ? 'up' : delta < 0 ? 'up' : 'down';
    focusLater(`${prefix}-choice-${target}-${edge}`);
  };
  return (
    <fieldset>
      <legend>{t('choices.legend')}</legend>
      <ol class="choices">
        {choices.map((choice, index) => (
          <li key={choice.key}>
            <label for={`${prefix}-choice-${index}`}>{t('builder.choiceN', { n: index + 1 })}</label>
            <input
              id={`${prefix}-choice-${index}`}
              type="text"
              maxLength={1000}
              value={choice.label}
              onInput={(event) => {
                const label = event.currentTarget.value;
                setChoices(choices.map((item, at) => (at === index ? { ...item, label } : item)));
              }}
            />
            <span class="row-actions">
              <button
                type="button"
                id={`${prefix}-choice-${index}-up`}
                disabled={index === 0}
                onClick={() => move(index, -1)}
              >
                {t('row.moveUp')}
                <span class="visually-hidden">{t('choices.which', { n: index + 1 })}</span>
              </button>
              <button
                type="button"
                id={`${prefix}-choice-${index}-down`}
                disabled={index === choices.length - 1}
                onClick={() => move(index, 1)}
              >
                {t('row.moveDown')}
                <span class="visually-hidden">{t('choices.which', { n: index + 1 })}</span>
              </button>
              <button
                type="button"
                disabled={choices.length === 1}
                onClick={() => {
                  setChoices(choices.filter((_, at) => at !== index));
                  focusLater(`${prefix}-choice-${Math.max(0, index - 1)}`);
                }}
              >
                {t('row.remove')}
                <span class="visually-hidden">{t('choices.which', { n: index + 1 })}</span>
              </button>
            </span>
          </li>
        ))}
      </ol>
      <button
        type="button"
        onClick={() => {
          setChoices([
            ...choices,
            { key: newKey(), label: t('builder.choiceN', { n: choices.length + 1 }), source: {} },
          ]);
          focusLater(`${prefix}-choice-${choices.length}`);
        }}
      >
        {t('choices.add')}
      </button>
      {question.type === 'multiple_choice' && (
        <>
          <label class="check">
            <input
              type="checkbox"
              checked={question.allowMultiple}
              onChange={(event) => onChange({ allowMultiple: event.currentTarget.checked })}
            />
            {t('choices.multiple')}
          </label>
          <label class="check">
            <input
              type="checkbox"
              checked={question.allowOther}
              onChange={(event) => onChange({ allowOther: event.currentTarget.checked })}
            />
            {t('choices.other')}
          </label>
        </>
      )}
    </fieldset>
  );
}
