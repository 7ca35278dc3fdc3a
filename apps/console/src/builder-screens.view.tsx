import type { EditableScreen } from './builder-form.mapper';
import { BuilderTextInput } from './builder-properties.view';
import { useTexts } from './texts.context';

interface Props {
  welcome?: EditableScreen;
  ending?: EditableScreen;
  onWelcome: (screen: EditableScreen | undefined) => void;
  onEnding: (screen: EditableScreen | undefined) => void;
}

const blank = (title: string): EditableScreen => ({ title, description: '', buttonText: '', source: {} });

function ScreenFields({
  prefix,
  screen,
  onChange,
}: {
  prefix: string;
  screen: EditableScreen;
  onChange: (screen: EditableScreen) => void;
}) {
  const { t } = useTexts();
  return (
    <>
      <BuilderTextInput
        id={`${prefix}-title`}
        label={t('create.title')}
        value={screen.title}
        onInput={(title) => onChange({ ...screen, title })}
      />
      <div class="field">
        <label for={`${prefix}-description`}>{t('question.description')}</label>
        <textarea
          id={`${prefix}-description`}
          rows={2}
          maxLength={4000}
          value={screen.description}
          onInput={(event) => onChange({ ...screen, description: event.currentTarget.value })}
        />
      </div>
      <BuilderTextInput
        id={`${prefix}-button`}
        label={t('props.buttonText')}
        value={screen.buttonText}
        hint={t('props.pageWord')}
        onInput={(buttonText) => onChange({ ...screen, buttonText })}
      />
    </>
  );
}

// The welcome screen (before the first question) and the form's own ending
// (after the last), each switched on or off by a box; without an ending of
// its own the form ends on the API's default one.
export function BuilderScreensView({ welcome, ending, onWelcome, onEnding }: Props) {
  const { t } = useTexts();
  return (
    <section aria-labelledby="builder-screens">
      <h2 id="builder-screens">{t('screens.heading')}</h2>
      <fieldset>
        <legend>{t('screens.welcome')}</legend>
        <label class="check">
          <input
            type="checkbox"
            checked={welcome !== undefined}
            onChange={(event) =>
              onWelcome(event.currentTarget.checked ? blank(t('screens.welcomeTitle')) : undefined)
            }
          />
          {t('screens.showWelcome')}
        </label>
        {welcome && <ScreenFields prefix="welcome" screen={welcome} onChange={onWelcome} />}
      </fieldset>
      <fieldset>
        <legend>{t('detail.ending')}</legend>
        <label class="check">
          <input
            type="checkbox"
            checked={ending !== undefined}
            onChange={(event) =>
              onEnding(event.currentTarget.checked ? blank(t('screens.endingTitle')) : undefined)
            }
          />
          {t('screens.ownEnding')}
        </label>
        {ending && <ScreenFields prefix="ending" screen={ending} onChange={onEnding} />}
      </fieldset>
    </section>
  );
}
