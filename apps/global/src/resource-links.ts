import type { Region, RegionBaseUrls } from '@formline/contracts';

// Where resources live, as clients see it. Everything is addressed on the
// default region's address ({base_url}), so forms read byte-identical through
// both base addresses (region rule 1, docs/architecture.md); only responses
// are addressed on the account's own region, which is how a client discovers
// it (the form's `_links.responses`).
export class ResourceLinks {
  private readonly base: string;

  constructor(private readonly baseUrls: RegionBaseUrls) {
    this.base = baseUrls.us;
  }

  form(formId: string): string {
    return `${this.base}/forms/${formId}`;
  }

  display(formId: string): string {
    return `${this.base}/to/${formId}`;
  }

  responses(formId: string, region: Region): string {
    return `${this.baseUrls[region]}/forms/${formId}/responses`;
  }

  workspace(workspaceId: string): string {
    return `${this.base}/workspaces/${workspaceId}`;
  }

  workspaceForms(workspaceId: string): string {
    return `${this.base}/forms?workspace_id=${encodeURIComponent(workspaceId)}`;
  }

  defaultTheme(): string {
    return `${this.base}/themes/default`;
  }

  // The workspace a client names by its href, when it is one of ours.
  workspaceIdFromHref(href: string): string | undefined {
    const match = /\/workspaces\/([^/?#]+)\/?$/.exec(new URL(href).pathname);
    return match?.[1];
  }
}
