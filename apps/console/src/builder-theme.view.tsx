import type { ListedTheme } from './builder-api.client';
import { themeIdOf } from './builder-form.mapper';
import { ProblemView } from './problem.view';
import { useTexts } from './texts.context';

interface Props {
  /** The form's theme address; "" when it has none (the API's default). */
  themeHref: string;
  themes:
    { state: 'loading' } | { state: 'failed'; error: unknown } | { state: 'loaded'; value: ListedTheme[] };
  /** Where the API's addresses start: this console's own origin. */
  origin: string;
  onChange: (themeHref: string) => void;
}

// The form's theme, one of the account's (GET /themes, read-only): the form
// points at it by its address.
export function BuilderThemeView({ themeHref, themes, origin, onChange }: Props) {
  const { t } = useTexts();
  const current = themeIdOf(themeHref) ?? '';
  const listed = themes.state === 'loaded' ? themes.value : [];
  return (
    <section aria-labelledby="builder-theme">
      <h2 id="builder-theme">{t('theme.heading')}</h2>
      {themes.state === 'failed' && <ProblemView error={themes.error} />}
      <div class="field">
        <label for="builder-theme-choice">{t('theme.label')}</label>
        <select
          id="builder-theme-choice"
          value={current}
          disabled={themes.state !== 'loaded'}
          onChange={(event) => {
            const id = event.currentTarget.value;
            onChange(id ? `${origin}/themes/${encodeURIComponent(id)}` : '');
          }}
        >
          {current === '' && <option value="">{t('theme.default')}</option>}
          {current !== '' && !listed.some((theme) => theme.id === current) && (
            <option value={current}>{t('theme.formsOwn', { id: current })}</option>
          )}
          {listed.map((theme) => (
            <option key={theme.id} value={theme.id}>
              {theme.name}
            </option>
          ))}
        </select>
      </div>
    </section>
  );
}
