import { useRef } from 'preact/hooks';
import type { FieldProblem } from './api.client';
import { positionOfPath, readJson, type TextPosition } from './builder-json.mapper';
import { useTexts } from './texts.context';

interface Props {
  text: string;
  onText: (text: string) => void;
  /** What the API refused at the last save, each with its path. */
  problems: FieldProblem[];
}

// The whole form definition as JSON, for what the builder has no inputs for
// (logic, calculations, settings, rarer types). A text that is not JSON says
// where, as it is typed; what the API refuses at a save is listed with the
// line of the text its path names, and a button selects that line.
export function BuilderJsonView({ text, onText, problems }: Props) {
  const texts = useTexts();
  const { t } = texts;
  const area = useRef<HTMLTextAreaElement>(null);
  const read = readJson(text, texts);
  const located = problems.map((problem) => ({ ...problem, at: positionOfPath(text, problem.field) }));
  const show = (position: TextPosition) => {
    const element = area.current;
    if (!element) return;
    const lines = text.split('\n');
    const start = lines.slice(0, position.line - 1).reduce((sum, line) => sum + line.length + 1, 0);
    element.focus();
    element.setSelectionRange(start, start + (lines[position.line - 1]?.length ?? 0));
    // Near the line, where the browser does not scroll a selection into view by itself.
    const lineHeight = element.scrollHeight / Math.max(1, lines.length);
    element.scrollTop = Math.max(0, (position.line - 3) * lineHeight);
  };
  const described = [
    'builder-json-hint',
    !read.ok ? 'builder-json-syntax' : '',
    located.length ? 'builder-json-problems' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <section aria-labelledby="builder-json">
      <h2 id="builder-json" tabIndex={-1}>
        JSON
      </h2>
      {!read.ok && (
        <p id="builder-json-syntax" class="field-problem" role="status">
          {t('json.invalid', { message: read.message, line: read.line, column: read.column })}{' '}
          <button type="button" class="inline" onClick={() => show(read)}>
            {t('json.showLine', { line: read.line })}
          </button>
        </p>
      )}
      {located.length > 0 && (
        <ul id="builder-json-problems" class="json-problems">
          {located.map((problem) => (
            <li key={problem.field}>
              {problem.at ? t('json.lineOf', { line: problem.at.line }) : ''}
              <code>{problem.field}</code>: {problem.description}
              {problem.at && (
                <>
                  {' '}
                  <button type="button" class="inline" onClick={() => problem.at && show(problem.at)}>
                    {t('json.showLine', { line: problem.at.line })}
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <div class="field">
        <label for="builder-json-text">{t('json.label')}</label>
        <textarea
          id="builder-json-text"
          ref={area}
          class="json"
          rows={24}
          spellcheck={false}
          autoComplete="off"
          value={text}
          aria-invalid={!read.ok || located.length > 0 ? true : undefined}
          aria-describedby={described}
          onInput={(event) => onText(event.currentTarget.value)}
        />
        <p id="builder-json-hint" class="hint">
          {t('json.hint')}
        </p>
      </div>
    </section>
  );
}
