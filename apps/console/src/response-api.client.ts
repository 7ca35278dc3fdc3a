import type { ApiClient } from './api.client';
import type { DeliveryPage } from './delivery-pages.route';
import type { FormOfResults, ResponseItem } from './response.format';
import type { ExportFormat } from './results-export-rows.mapper';
import { apiFilters, type ResultsFilters } from './results-filter.route';

export interface ResponsePage {
  total_items: number;
  items: ResponseItem[];
}

// The Responses API of one form, as the Results screen calls it: the form's
// definition (its questions are the columns), a page of responses by the
// filters and a cursor, one response, their deletion, the export of what the
// filters select (and their files), and a response's file. Each path built in one place,
// its ids escaped.
export class ResponseApiClient {
  private readonly formPath: string;

  constructor(
    private readonly api: ApiClient,
    readonly formId: string,
  ) {
    this.formPath = `/forms/${encodeURIComponent(formId)}`;
  }

  form(signal?: AbortSignal): Promise<FormOfResults> {
    return this.api.get<FormOfResults>(this.formPath, {}, signal);
  }

  /** Newest first, `pageSize` at most, before or after a response token (the API's cursor). */
  list(
    filters: ResultsFilters,
    page: DeliveryPage,
    pageSize: number,
    signal?: AbortSignal,
  ): Promise<ResponsePage> {
    const query = { ...apiFilters(filters), page_size: pageSize, before: page.before, after: page.after };
    return this.api.get<ResponsePage>(`${this.formPath}/responses`, query, signal);
  }

  /** One response by its token, whatever its state; none: it is not there (deleted, or never was). */
  async one(token: string, signal?: AbortSignal): Promise<ResponseItem | undefined> {
    const query = { included_response_ids: token, response_type: 'completed,partial,started', page_size: 1 };
    const page = await this.api.get<ResponsePage>(`${this.formPath}/responses`, query, signal);
    return page.items.find((item) => item.token === token);
  }

  async delete(tokens: readonly string[]): Promise<void> {
    await this.api.change<undefined>('DELETE', `${this.formPath}/responses`, {
      included_response_ids: tokens,
    });
  }

  /** How many responses the filters select (the listing's `total_items`, bounded when filtered). */
  async count(filters: ResultsFilters, signal?: AbortSignal): Promise<number> {
    const query = { ...apiFilters(filters), page_size: 1 };
    return (await this.api.get<ResponsePage>(`${this.formPath}/responses`, query, signal)).total_items;
  }

  /**
   * Every response the filters select (not only a page), oldest first, as
   * CSV or JSON lines, streamed; `after` resumes after that response.
   */
  openExport(
    filters: ResultsFilters,
    format: ExportFormat,
    after: string | undefined,
    signal: AbortSignal,
  ): Promise<{ body: ReadableStream<Uint8Array>; fileName: string }> {
    return this.api.stream(
      `${this.formPath}/responses/export`,
      { format, ...apiFilters(filters), after },
      `${this.formId}-responses.${format}`,
      signal,
    );
  }

  /** The files the selected responses answer with, as one tar archive, streamed. */
  openFiles(
    filters: ResultsFilters,
    signal: AbortSignal,
  ): Promise<{ body: ReadableStream<Uint8Array>; fileName: string }> {
    return this.api.stream(
      `${this.formPath}/responses/files`,
      apiFilters(filters),
      `${this.formId}-files.tar`,
      signal,
    );
  }

  /**
   * A respondent's file, by the address its answer holds (the API's file
   * route on this origin); none when the address is not such a route.
   */
  file(fileUrl: string, fileName: string): Promise<{ blob: Blob; fileName: string }> | undefined {
    let url: URL;
    try {
      url = new URL(fileUrl, location.origin);
    } catch {
      return undefined;
    }
    const route = `${this.formPath}/responses/`;
    if (
      url.origin !== location.origin ||
      !url.pathname.startsWith(route) ||
      !url.pathname.includes('/files/')
    ) {
      return undefined;
    }
    return this.api.download(url.pathname, {}, fileName);
  }
}
