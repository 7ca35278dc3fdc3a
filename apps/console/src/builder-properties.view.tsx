import { type EditableQuestion, scaleTypes, stepBounds, textTypes } from './builder-form.mapper';
import { useTexts } from './texts.context';

interface Props {
  question: EditableQuestion;
  prefix: string;
  onChange: (change: Partial<EditableQuestion>) => void;
}

export function BuilderTextInput({
  id,
  label,
  value,
  hint,
  onInput,
}: {
  id: string;
  label: string;
  value: string;
  hint?: string;
  onInput: (value: string) => void;
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        type="text"
        maxLength={1000}
        value={value}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onInput={(event) => onInput(event.currentTarget.value)}
      />
      {hint && (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      )}
    </div>
  );
}

function NumberInput({
  id,
  label,
  value,
  hint,
  min,
  max,
  onInput,
}: {
  id: string;
  label: string;
  value: string;
  hint: string;
  min?: number;
  max?: number;
  onInput: (value: string) => void;
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        min={min}
        max={max}
        value={value}
        aria-describedby={`${id}-hint`}
        onInput={(event) => onInput(event.currentTarget.value)}
      />
      <p id={`${id}-hint`} class="hint">
        {hint}
      </p>
    </div>
  );
}

// What each type adds to the title, description and "required": a text's
// longest answer, a number's bounds, a scale's steps and labels, a
// statement's button. Choices have their own view.
export function BuilderPropertiesView({ question, prefix, onChange }: Props) {
  const { t } = useTexts();
  const { type } = question;
  if (textTypes.includes(type)) {
    return (
      <NumberInput
        id={`${prefix}-max-length`}
        label={t('props.maxLength')}
        value={question.maxLength}
        min={1}
        hint={t('props.noLimit')}
        onInput={(maxLength) => onChange({ maxLength })}
      />
    );
  }
  if (type === 'number') {
    return (
      <div class="pair">
        <NumberInput
          id={`${prefix}-min`}
          label={t('props.min')}
          value={question.minValue}
          hint={t('props.noMin')}
          onInput={(minValue) => onChange({ minValue })}
        />
        <NumberInput
          id={`${prefix}-max`}
          label={t('props.max')}
          value={question.maxValue}
          hint={t('props.noMax')}
          onInput={(maxValue) => onChange({ maxValue })}
        />
      </div>
    );
  }
  if (scaleTypes.includes(type)) {
    const bounds = stepBounds[type];
    return (
      <>
        <NumberInput
          id={`${prefix}-steps`}
          label={t('props.steps')}
          value={question.steps}
          min={bounds.min}
          max={bounds.max}
          hint={t('props.stepsHint', { min: bounds.min, max: bounds.max })}
          onInput={(steps) => onChange({ steps })}
        />
        {type === 'opinion_scale' && (
          <>
            <label class="check">
              <input
                type="checkbox"
                checked={question.startAtOne}
                onChange={(event) => onChange({ startAtOne: event.currentTarget.checked })}
              />
              {t('props.startAtOne')}
            </label>
            <BuilderTextInput
              id={`${prefix}-label-left`}
              label={t('props.labelLeft')}
              value={question.labelLeft}
              onInput={(labelLeft) => onChange({ labelLeft })}
            />
            <BuilderTextInput
              id={`${prefix}-label-center`}
              label={t('props.labelCenter')}
              value={question.labelCenter}
              onInput={(labelCenter) => onChange({ labelCenter })}
            />
            <BuilderTextInput
              id={`${prefix}-label-right`}
              label={t('props.labelRight')}
              value={question.labelRight}
              onInput={(labelRight) => onChange({ labelRight })}
            />
          </>
        )}
      </>
    );
  }
  if (type === 'statement') {
    return (
      <BuilderTextInput
        id={`${prefix}-button`}
        label={t('props.buttonText')}
        value={question.buttonText}
        hint={t('props.pageWord')}
        onInput={(buttonText) => onChange({ buttonText })}
      />
    );
  }
  return null;
}
