import { useState } from 'preact/hooks';
import { hiddenNameProblem } from './builder-form.mapper';
import { useTexts } from './texts.context';

interface Props {
  hidden: string[];
  onChange: (hidden: string[]) => void;
  focusLater: (id: string) => void;
}

// Hidden fields: the names a form's link may carry values for (`?source=…`),
// added by name, checked against the API's rule before they are, and removed.
export function BuilderHiddenView({ hidden, onChange, focusLater }: Props) {
  const texts = useTexts();
  const { t } = texts;
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string>();
  return (
    <section aria-labelledby="builder-hidden">
      <h2 id="builder-hidden">{t('detail.hidden')}</h2>
      {hidden.length === 0 && <p>{t('hidden.none')}</p>}
      <ul class="hidden-fields">
        {hidden.map((name, index) => (
          <li key={name}>
            <code id={`hidden-${index}`}>{name}</code>
            <button
              type="button"
              onClick={() => {
                onChange(hidden.filter((_, at) => at !== index));
                focusLater('hidden-name');
              }}
            >
              {t('row.remove')}
              <span class="visually-hidden">{t('hidden.which', { name })}</span>
            </button>
          </li>
        ))}
      </ul>
      <form
        class="add-hidden"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const name = typed.trim();
          const found = hiddenNameProblem(name, hidden, texts);
          setProblem(found);
          if (found) return;
          onChange([...hidden, name]);
          setTyped('');
        }}
      >
        <div class="field">
          <label for="hidden-name">{t('hidden.label')}</label>
          <input
            id="hidden-name"
            type="text"
            maxLength={100}
            autoComplete="off"
            value={typed}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'hidden-name-hint hidden-name-problem' : 'hidden-name-hint'}
            onInput={(event) => setTyped(event.currentTarget.value)}
          />
          <p id="hidden-name-hint" class="hint">
            {t('hidden.hint')}
          </p>
          {problem && (
            <p id="hidden-name-problem" class="field-problem">
              {problem}
            </p>
          )}
        </div>
        <button type="submit">{t('hidden.add')}</button>
      </form>
    </section>
  );
}
