import type { ApiClient } from './api.client';
import { copyBodyOf } from './form-copy.mapper';
import type { ListedForm } from './form-list.view';
import { type ConsoleTexts, englishTexts } from './console.texts';

// The Create API's forms as the Forms screen changes them: a new form, a
// copy, a deletion, and how many responses a deletion would take. Each path
// built in one place, its id escaped.
export class FormApiClient {
  constructor(private readonly api: ApiClient) {}

  private path(formId: string): string {
    return `/forms/${encodeURIComponent(formId)}`;
  }

  /** A form with a title and no questions yet, in the workspace named by its `self.href`. */
  create(title: string, workspaceHref: string | undefined): Promise<ListedForm> {
    return this.api.change<ListedForm>('POST', '/forms', {
      title,
      ...(workspaceHref ? { workspace: { href: workspaceHref } } : {}),
    });
  }

  /**
   * The API has no copy route (Typeform's has none either): the form is read
   * whole and created again under "… (copy)", with new ids, and the page
   * texts it overrides (its messages, a resource of their own) are put on
   * the copy. The copy exists once created: a refusal of its texts comes
   * back beside it, not instead of it.
   */
  async duplicate(
    formId: string,
    texts: ConsoleTexts = englishTexts,
  ): Promise<{ copy: ListedForm; messagesProblem?: unknown }> {
    const [form, messages] = await Promise.all([
      this.api.get<Record<string, unknown>>(this.path(formId)),
      this.api.get<Record<string, string>>(`${this.path(formId)}/messages`),
    ]);
    const copy = await this.api.change<ListedForm>('POST', '/forms', copyBodyOf(form, texts));
    if (Object.keys(messages).length === 0) return { copy };
    try {
      await this.api.change<undefined>('PUT', `${this.path(copy.id)}/messages`, messages);
      return { copy };
    } catch (messagesProblem) {
      return { copy, messagesProblem };
    }
  }

  /** Every response of the form, finished or not: an unfiltered count, which the API keeps exact and cheap. */
  async responseCount(formId: string, signal?: AbortSignal): Promise<number> {
    const page = await this.api.get<{ total_items: number }>(
      `${this.path(formId)}/responses`,
      { page_size: 1, response_type: 'completed,partial,started' },
      signal,
    );
    return page.total_items;
  }

  async delete(formId: string): Promise<void> {
    await this.api.change<undefined>('DELETE', this.path(formId));
  }
}
