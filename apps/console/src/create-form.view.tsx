import type { WorkspaceResource } from '@formline/contracts';
import { useEffect, useRef, useState } from 'preact/hooks';
import { titleMaxLength } from './form-copy.mapper';
import { ProblemView } from './problem.view';
import { useTexts } from './texts.context';

interface Props {
  workspaces: WorkspaceResource[];
  /** The workspace chosen at first: the one the screen shows, else the account's default. */
  workspaceId: string | undefined;
  creating: boolean;
  /** What the API said when creating failed. */
  problem?: unknown;
  onCreate: (title: string, workspace: WorkspaceResource | undefined) => void;
  onCancel: () => void;
}

// A new form: its title and the workspace it goes in. Focus goes to the title,
// the one thing to type; an empty title is said beside its field before
// anything is sent, and the API's own refusal shows above the buttons.
// Escape (wherever focus is), or Cancel, leaves it.
export function CreateFormView({ workspaces, workspaceId, creating, problem, onCreate, onCancel }: Props) {
  const { t } = useTexts();
  const [title, setTitle] = useState('');
  const [chosen, setChosen] = useState(
    () =>
      workspaces.find((workspace) => workspace.id === workspaceId)?.id ??
      workspaces.find((workspace) => workspace.default && !workspace.shared)?.id ??
      workspaces[0]?.id ??
      '',
  );
  const [untitled, setUntitled] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  // Wherever focus is while the panel is open (a click may have left it on the page).
  useEffect(() => {
    const cancelOnEscape = (event: KeyboardEvent) => event.key === 'Escape' && onCancel();
    document.addEventListener('keydown', cancelOnEscape);
    return () => document.removeEventListener('keydown', cancelOnEscape);
  }, [onCancel]);

  return (
    <section class="editor" aria-labelledby="create-form-title">
      <h2 id="create-form-title">{t('forms.new')}</h2>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (creating) return;
          const trimmed = title.trim();
          setUntitled(trimmed === '');
          if (trimmed === '') {
            input.current?.focus();
            return;
          }
          onCreate(
            trimmed,
            workspaces.find((workspace) => workspace.id === chosen),
          );
        }}
      >
        <div class="field">
          <label for="create-form-title-input">{t('create.title')}</label>
          <input
            id="create-form-title-input"
            ref={input}
            type="text"
            maxLength={titleMaxLength}
            autoComplete="off"
            value={title}
            onInput={(event) => setTitle(event.currentTarget.value)}
            {...(untitled ? { 'aria-invalid': true, 'aria-describedby': 'create-form-title-problem' } : {})}
          />
          {untitled && (
            <p id="create-form-title-problem" class="field-problem" role="alert">
              {t('create.untitled')}
            </p>
          )}
        </div>
        {workspaces.length > 0 && (
          <div class="field">
            <label for="create-form-workspace">{t('create.workspace')}</label>
            <select
              id="create-form-workspace"
              value={chosen}
              onChange={(event) => setChosen(event.currentTarget.value)}
            >
              {workspaces.map((workspace) => (
                <option key={workspace.id} value={workspace.id}>
                  {workspace.shared ? t('create.shared', { workspace: workspace.name }) : workspace.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <p class="hint">{t('create.hint')}</p>
        {problem !== undefined && <ProblemView error={problem} />}
        <div class="actions">
          {/* Not disabled while sending: a disabled button would drop the focus it holds. */}
          <button type="submit" class="primary" aria-disabled={creating}>
            {creating ? t('create.creating') : t('create.submit')}
          </button>
          <button type="button" onClick={onCancel}>
            {t('action.cancel')}
          </button>
        </div>
      </form>
    </section>
  );
}
