import type { ResponseResource } from '@formline/contracts';
import { isStoredFileName, responseFileUrl } from '@formline/object-storage';

const safeSegment = /^[\w-]{1,100}$/;

// The files a response answers with (its `file_url` and `multi_format`
// answers), where the Responses API shows them: at this region's response
// files address of this form and response. Anything else a payload holds is
// no file of ours.
export function answeredFiles(
  regionBase: string,
  formId: string,
  response: ResponseResource,
): Array<{ fieldId: string; fileName: string }> {
  const answers = Array.isArray(response.answers) ? (response.answers as Array<Record<string, unknown>>) : [];
  const files: Array<{ fieldId: string; fileName: string }> = [];
  for (const answer of answers) {
    const fieldId = (answer.field as { id?: unknown } | undefined)?.id;
    const url =
      answer.type === 'file_url'
        ? answer.file_url
        : answer.type === 'multi_format'
          ? (answer.multi_format as { file_url?: unknown } | undefined)?.file_url
          : undefined;
    if (typeof fieldId !== 'string' || typeof url !== 'string' || !safeSegment.test(fieldId)) continue;
    const prefix = responseFileUrl(regionBase, formId, response.token, fieldId, '');
    const fileName = url.startsWith(prefix) ? url.slice(prefix.length) : '';
    if (isStoredFileName(fileName)) files.push({ fieldId, fileName });
  }
  return files;
}
