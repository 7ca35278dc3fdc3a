import type { ThemeResource } from '@formline/contracts';
import type { ApiClient, Versioned } from './api.client';
import type { Json } from './builder-form.mapper';

/** What the builder reads of the themes list: enough to name and address each. */
export type ListedTheme = Pick<ThemeResource, 'id' | 'name'>;

// The public API as the builder calls it: one form, read with its version and
// written only over that version, and the account's themes to choose from.
export class BuilderApiClient {
  constructor(
    private readonly api: ApiClient,
    readonly formId: string,
  ) {}

  private get path(): string {
    return `/forms/${encodeURIComponent(this.formId)}`;
  }

  load(signal?: AbortSignal): Promise<Versioned<Json>> {
    return this.api.getVersioned<Json>(this.path, signal);
  }

  /** PUT with If-Match: a 412 ApiError when someone saved the form since `etag`. */
  save(form: unknown, etag: string): Promise<Versioned<Json>> {
    return this.api.putVersioned<Json>(this.path, form, etag);
  }

  async themes(signal?: AbortSignal): Promise<ListedTheme[]> {
    // The API's largest page; an account with more themes sees the first 200.
    return (await this.api.get<{ items: ListedTheme[] }>('/themes', { page_size: 200 }, signal)).items;
  }
}
