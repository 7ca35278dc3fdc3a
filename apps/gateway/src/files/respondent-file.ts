import type { Region } from '@formline/contracts';

// A respondent's file: where its bytes are in the region's file store, and the
// address a submission names it by (the answer's `file_url`). The file name is
// the upload's random id and the respondent's own name made safe
// (`{upload_id}-{name}`), as Typeform's file names are.
export const FILE_STORE = Symbol('FILE_STORE');

export function fileKey(region: Region, formId: string, fieldId: string, fileName: string): string {
  return `${region}/forms/${formId}/${fieldId}/${fileName}`;
}

export function fileUrl(regionBase: string, formId: string, fieldId: string, fileName: string): string {
  return `${regionBase}/forms/${formId}/files/${fieldId}/${fileName}`;
}

// The file a `file_url` answer names, when it is one of this form's and this
// question's uploads in this region; undefined for anything else.
export function fileNameFromUrl(
  url: string,
  regionBase: string,
  formId: string,
  fieldId: string,
): string | undefined {
  const prefix = `${regionBase}/forms/${formId}/files/${fieldId}/`;
  if (!url.startsWith(prefix)) return undefined;
  const name = url.slice(prefix.length);
  return isStoredFileName(name) ? name : undefined;
}

const storedName = /^[A-Za-z0-9]{16}-[\w.-]{1,100}$/;
export function isStoredFileName(name: string): boolean {
  return storedName.test(name) && !name.includes('..');
}

// The respondent's file name, kept readable but safe in a path, a URL and a
// header: letters, digits, `.`, `_` and `-`, at most 100 characters.
export function safeFileName(original: string): string {
  const base = original.split(/[/\\]/).pop() ?? '';
  let safe = '';
  for (const char of base.normalize('NFKD')) {
    if (safe.length >= 100) break;
    // Accents come apart in NFKD and are dropped: résumé.pdf is resume.pdf.
    const code = char.charCodeAt(0);
    if (code >= 0x300 && code <= 0x36f) continue;
    safe += /[\w.-]/.test(char) ? char : '_';
  }
  while (safe.startsWith('.')) safe = safe.slice(1);
  return safe.replaceAll('..', '_') || 'file';
}
