import type { Field } from '@formline/form-definition';
import type { PageTexts, StoredAnswer } from '@formline/form-logic';

// The control of a `file_upload` question. The file goes up as soon as it is
// picked (POST {region}/forms/{id}/files/{field_id}, raw bytes), and the
// answer is the `file_url` that upload returns; moving on before it finishes
// finds no answer yet. A native file input: focusable with Tab, opened with
// Enter or Space, named by the question; the outcome is announced in a
// polite live region. Every word of it is the page's, in the form's language:
// the browser's own button text ("Choose File", in the browser's language) is
// hidden behind the control's label, and a refused upload is told in the
// page's words, not the server's.

const named = (text: string, name: string) => text.replace('{name}', () => name);

export interface FileUploadControl {
  node: HTMLElement;
  reader: { read(): StoredAnswer | undefined };
}

export function fileUploadControl(
  field: Field,
  options: {
    /** The form's submissions address; files go beside it. */
    submitUrl: string;
    aria: Record<string, string | undefined>;
    saved?: StoredAnswer;
    texts: Pick<PageTexts, 'chooseFile' | 'uploading' | 'uploaded' | 'uploadFailed' | 'fileTooLarge'>;
  },
): FileUploadControl {
  const t = options.texts;
  const uploadUrl = fileUploadUrl(options.submitUrl, field);
  const input = document.createElement('input');
  input.type = 'file';
  input.id = `q-${field.id}-input`;
  input.className = 'file';
  for (const [name, value] of Object.entries(options.aria))
    if (value !== undefined) input.setAttribute(name, value);
  const status = document.createElement('p');
  status.className = 'file-status';
  status.id = `q-${field.id}-file-status`;
  status.setAttribute('role', 'status');
  status.setAttribute('aria-live', 'polite');
  input.setAttribute(
    'aria-describedby',
    [options.aria['aria-describedby'], status.id].filter((id) => id !== undefined).join(' '),
  );
  const label = document.createElement('label');
  label.htmlFor = input.id;
  label.className = 'file-label';
  label.textContent = t.chooseFile;

  let fileUrl = options.saved?.type === 'file_url' ? options.saved.file_url : undefined;
  if (fileUrl) status.textContent = named(t.uploaded, fileUrl.slice(fileUrl.lastIndexOf('/') + 1));
  let attempt = 0;

  input.addEventListener('change', () => {
    const file = input.files?.[0];
    fileUrl = undefined;
    if (!file) {
      status.textContent = '';
      return;
    }
    const mine = ++attempt;
    status.textContent = named(t.uploading, file.name);
    void uploadFile(uploadUrl, file, file.name).then(
      (url) => {
        if (mine !== attempt) return; // a newer pick replaced this one
        fileUrl = url;
        status.textContent = named(t.uploaded, file.name);
      },
      (error: unknown) => {
        if (mine !== attempt) return;
        status.textContent =
          error instanceof UploadRefused && error.status === 413 ? t.fileTooLarge : t.uploadFailed;
      },
    );
  });

  const node = document.createElement('div');
  node.className = 'answer file-answer';
  node.append(input, label, status);
  return {
    node,
    reader: {
      read: () =>
        fileUrl === undefined
          ? undefined
          : {
              field: { id: field.id, ref: field.ref, type: field.type },
              type: 'file_url',
              file_url: fileUrl,
            },
    },
  };
}

// Where a question's files go: beside the form's submissions address.
export function fileUploadUrl(submitUrl: string, field: Pick<Field, 'id'>): string {
  return `${submitUrl.replace(/\/submissions$/, '')}/files/${encodeURIComponent(field.id)}`;
}

// Sends the bytes; resolves to the `file_url` an answer names, or rejects with UploadRefused.
export async function uploadFile(url: string, bytes: Blob, name: string): Promise<string> {
  const response = await fetch(`${url}?filename=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: bytes,
  });
  const body = (await response.json().catch(() => ({}))) as { file_url?: string };
  if (!response.ok || typeof body.file_url !== 'string') throw new UploadRefused(response.status);
  return body.file_url;
}

export class UploadRefused extends Error {
  constructor(readonly status: number) {
    super(`the upload answered ${status}`);
  }
}
