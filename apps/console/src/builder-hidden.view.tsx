import { useState } from 'preact/hooks';
import { hiddenNameProblem } from './builder-form.mapper';

interface Props {
  hidden: string[];
  onChange: (hidden: string[]) => void;
  focusLater: (id: string) => void;
}

// Hidden fields: the names a form's link may carry values for (`?source=…`),
// added by name, checked against the API's rule before they are, and removed.
export function BuilderHiddenView({ hidden, onChange, focusLater }: Props) {
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string>();
  return (
    <section aria-labelledby="builder-hidden">
      <h2 id="builder-hidden">Hidden fields</h2>
      {hidden.length === 0 && <p>None.</p>}
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
              Remove<span class="visually-hidden"> the hidden field {name}</span>
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
          const found = hiddenNameProblem(name, hidden);
          setProblem(found);
          if (found) return;
          onChange([...hidden, name]);
          setTyped('');
        }}
      >
        <div class="field">
          <label for="hidden-name">Name of a hidden field</label>
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
            Lowercase letters, digits and _.
          </p>
          {problem && (
            <p id="hidden-name-problem" class="field-problem">
              {problem}
            </p>
          )}
        </div>
        <button type="submit">Add the hidden field</button>
      </form>
    </section>
  );
}
