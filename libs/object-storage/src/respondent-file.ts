// A respondent's file (a `file_upload` answer): where its bytes are in the
// region's file store, the address its upload answers (what a submission names
// it by), and the address Typeform's Responses API shows it at (the response
// files endpoint). The file name is the upload's random id and the
// respondent's own name made safe (`{upload_id}-{name}`), as Typeform's are.

export function fileKey(region: string, formId: string, fieldId: string, fileName: string): string {
  return `${region}/forms/${formId}/${fieldId}/${fileName}`;
}

// What the upload answers: the submission's `file_url`.
export function uploadUrl(regionBase: string, formId: string, fieldId: string, fileName: string): string {
  return `${regionBase}/forms/${formId}/files/${fieldId}/${fileName}`;
}

// Where the owner downloads it, as Typeform's responses and payloads show it.
export function responseFileUrl(
  regionBase: string,
  formId: string,
  responseId: string,
  fieldId: string,
  fileName: string,
): string {
  return `${regionBase}/forms/${formId}/responses/${responseId}/fields/${fieldId}/files/${fileName}`;
}

// The file an upload address names, when it is one of this form's and this
// question's in this region; undefined for anything else.
export function fileNameFromUploadUrl(
  url: string,
  regionBase: string,
  formId: string,
  fieldId: string,
): string | undefined {
  const prefix = uploadUrl(regionBase, formId, fieldId, '');
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
