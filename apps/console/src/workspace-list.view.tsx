import type { WorkspaceResource } from '@formline/contracts';
import { useTexts } from './texts.context';

interface Props {
  workspaces: WorkspaceResource[];
  /** The workspace whose forms are shown; undefined: all of them. */
  selected: string | undefined;
  onSelect: (workspaceId: string | undefined) => void;
}

// The account's workspaces (its own, then those shared with it), each a
// toggle that shows only its forms; "All workspaces" shows every form.
export function WorkspaceListView({ workspaces, selected, onSelect }: Props) {
  const { t } = useTexts();
  return (
    <nav class="workspaces" aria-labelledby="workspaces-title">
      <h2 id="workspaces-title">{t('workspaces.heading')}</h2>
      <ul>
        <li>
          <button type="button" aria-pressed={selected === undefined} onClick={() => onSelect(undefined)}>
            {t('workspaces.all')}
          </button>
        </li>
        {workspaces.map((workspace) => (
          <li key={workspace.id}>
            <button
              type="button"
              aria-pressed={selected === workspace.id}
              onClick={() => onSelect(workspace.id)}
            >
              <span class="name">{workspace.name}</span>
              <span class="count">
                {t(workspace.shared ? 'workspaces.formsShared' : 'workspaces.forms', {
                  count: workspace.forms.count,
                })}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
