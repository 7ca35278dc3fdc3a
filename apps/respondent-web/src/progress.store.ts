import type { StoredAnswer } from '@formline/form-logic';

// What the respondent did, kept in localStorage until submitted when the form
// autosaves: answers by field ref, the blocks confirmed (the path so far), the
// idempotency key of the submission (so a retry after a reload counts once).
export interface Progress {
  answers: Record<string, StoredAnswer>;
  confirmed: string[];
  started: boolean;
  landedAt: string;
  key?: string;
}

export function freshProgress(): Progress {
  return { answers: {}, confirmed: [], started: false, landedAt: new Date().toISOString() };
}

/** The form's progress in the browser's storage, under the form's id; nothing kept when it does not autosave. */
export class ProgressStore {
  private readonly key: string;

  constructor(
    formId: string,
    private readonly autosave: boolean,
    private readonly storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined,
  ) {
    this.key = `formline:${formId}`;
  }

  restore(): Progress | undefined {
    if (!this.autosave || !this.storage) return undefined;
    try {
      const saved = JSON.parse(this.storage.getItem(this.key) ?? 'null') as Progress | null;
      const ok =
        saved !== null &&
        typeof saved === 'object' &&
        typeof saved.answers === 'object' &&
        Array.isArray(saved.confirmed) &&
        typeof saved.landedAt === 'string';
      return ok ? saved : undefined;
    } catch {
      return undefined;
    }
  }

  save(progress: Progress): void {
    if (!this.autosave) return;
    try {
      this.storage?.setItem(this.key, JSON.stringify(progress));
    } catch {
      // Storage full or refused (private browsing): the page works without it.
    }
  }

  forget(): void {
    try {
      this.storage?.removeItem(this.key);
    } catch {
      // Nothing was stored.
    }
  }
}
