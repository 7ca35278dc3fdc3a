import type { EditableScreen } from './builder-form.mapper';
import { BuilderTextInput } from './builder-properties.view';

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
  return (
    <>
      <BuilderTextInput
        id={`${prefix}-title`}
        label="Title"
        value={screen.title}
        onInput={(title) => onChange({ ...screen, title })}
      />
      <div class="field">
        <label for={`${prefix}-description`}>Description</label>
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
        label="Button text"
        value={screen.buttonText}
        hint="Empty: the page's own word."
        onInput={(buttonText) => onChange({ ...screen, buttonText })}
      />
    </>
  );
}

// The welcome screen (before the first question) and the form's own ending
// (after the last), each switched on or off by a box; without an ending of
// its own the form ends on the API's default one.
export function BuilderScreensView({ welcome, ending, onWelcome, onEnding }: Props) {
  return (
    <section aria-labelledby="builder-screens">
      <h2 id="builder-screens">Welcome and ending</h2>
      <fieldset>
        <legend>Welcome screen</legend>
        <label class="check">
          <input
            type="checkbox"
            checked={welcome !== undefined}
            onChange={(event) => onWelcome(event.currentTarget.checked ? blank('Welcome') : undefined)}
          />
          Show a welcome screen
        </label>
        {welcome && <ScreenFields prefix="welcome" screen={welcome} onChange={onWelcome} />}
      </fieldset>
      <fieldset>
        <legend>Ending</legend>
        <label class="check">
          <input
            type="checkbox"
            checked={ending !== undefined}
            onChange={(event) => onEnding(event.currentTarget.checked ? blank('Thank you!') : undefined)}
          />
          End on a screen of this form's own (otherwise the default ending)
        </label>
        {ending && <ScreenFields prefix="ending" screen={ending} onChange={onEnding} />}
      </fieldset>
    </section>
  );
}
