import type { Field } from '@formline/form-definition';
import type { StoredAnswer } from '@formline/form-logic';

// The control of a `file_upload` question. The file goes up as soon as it is
// picked (POST {region}/forms/{id}/files/{field_id}, raw bytes), and the
// answer is the `file_url` that upload returns; moving on before it finishes
// finds no answer yet. A native file input: focusable with Tab, opened with
// Enter or Space, named by the question; the outcome is announced in a
// polite live region.

const words = {
  choose: 'Choose a file',
  uploading: 'Uploading {name}…',
  uploaded: 'Uploaded: {name}',
  failed: 'The file could not be uploaded ({reason}). Try again.',
};

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
  },
): FileUploadControl {
  const uploadUrl = `${options.submitUrl.replace(/\/submissions$/, '')}/files/${encodeURIComponent(field.id)}`;
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
  label.textContent = words.choose;

  let fileUrl = options.saved?.type === 'file_url' ? options.saved.file_url : undefined;
  if (fileUrl)
    status.textContent = words.uploaded.replace('{name}', fileUrl.slice(fileUrl.lastIndexOf('/') + 1));
  let attempt = 0;

  input.addEventListener('change', () => {
    const file = input.files?.[0];
    fileUrl = undefined;
    if (!file) {
      status.textContent = '';
      return;
    }
    const mine = ++attempt;
    status.textContent = words.uploading.replace('{name}', file.name);
    void upload(uploadUrl, file).then(
      (url) => {
        if (mine !== attempt) return; // a newer pick replaced this one
        fileUrl = url;
        status.textContent = words.uploaded.replace('{name}', file.name);
      },
      (error: unknown) => {
        if (mine !== attempt) return;
        status.textContent = words.failed.replace(
          '{reason}',
          error instanceof Error ? error.message : 'error',
        );
      },
    );
  });

  const node = document.createElement('div');
  node.className = 'answer file-answer';
  node.append(label, input, status);
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

async function upload(url: string, file: File): Promise<string> {
  const response = await fetch(`${url}?filename=${encodeURIComponent(file.name)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: file,
  });
  const body = (await response.json().catch(() => ({}))) as { file_url?: string; description?: string };
  if (!response.ok || typeof body.file_url !== 'string') {
    throw new Error(body.description ?? `HTTP ${response.status}`);
  }
  return body.file_url;
}
