import { Inject, Injectable } from '@nestjs/common';
import { regionBaseUrls } from '@formline/config';
import { DomainError, ErrorCode, type ErrorDetail } from '@formline/errors';
import type { StoredAnswer } from '@formline/form-logic';
import { fileNameFromUploadUrl, responseFileUrl } from '@formline/object-storage';
import { RESPONSES_CONFIG, type ResponsesConfig } from '@formline/app-config';
import { UploadRepository } from '../uploads/upload.repository';

// The files a submission's answers name (a file_upload's `file_url`, a
// multi_format's recording): each must name an upload made for that form's
// question in this region, held by no other response; the response then shows
// each file where Typeform shows it, at the response files endpoint, never at
// the upload's own address.
@Injectable()
export class FileAnswers {
  private readonly regionBase: string;

  constructor(
    private readonly uploads: UploadRepository,
    @Inject(RESPONSES_CONFIG) config: ResponsesConfig,
  ) {
    this.regionBase = regionBaseUrls(config)[config.REGION];
  }

  // The stored names of the uploads the answers name; every problem at once.
  // `responseId`: the response in progress the submission continues, which
  // may name its own uploads again.
  async check(formId: string, answers: readonly StoredAnswer[], responseId?: string): Promise<string[]> {
    const named = answers
      .filter((answer) => fileUrlOf(answer) !== undefined)
      .map((answer) => ({
        answer,
        fileName: fileNameFromUploadUrl(fileUrlOf(answer) ?? '', this.regionBase, formId, answer.field.id),
      }));
    if (named.length === 0) return [];
    const names = named.flatMap(({ fileName }) => (fileName ? [fileName] : []));
    const rows = new Map((await this.uploads.find(formId, names)).map((row) => [row.fileName, row]));
    const problems: ErrorDetail[] = [];
    for (const { answer, fileName } of named) {
      const row = fileName ? rows.get(fileName) : undefined;
      const usable =
        row !== undefined &&
        row.fieldId === answer.field.id &&
        (row.responseId === null || row.responseId === responseId);
      if (!usable) {
        problems.push({
          code: 'FILE_NOT_UPLOADED',
          description: `${answer.field.ref}: file_url must be the address an upload to this form's question answered`,
          field: answer.field.ref,
          in: 'body',
        });
      }
    }
    if (problems.length > 0) {
      throw new DomainError(ErrorCode.ValidationError, 'The submission is invalid.', problems);
    }
    return names;
  }

  // The answers as the response shows them: each file at the response files endpoint.
  present(formId: string, responseId: string, answers: readonly StoredAnswer[]): StoredAnswer[] {
    return answers.map((answer) => {
      const url = fileUrlOf(answer);
      const fileName =
        url !== undefined ? fileNameFromUploadUrl(url, this.regionBase, formId, answer.field.id) : undefined;
      if (!fileName) return answer;
      const file_url = responseFileUrl(this.regionBase, formId, responseId, answer.field.id, fileName);
      return answer.type === 'multi_format' && answer.multi_format
        ? { ...answer, multi_format: { ...answer.multi_format, file_url } }
        : { ...answer, file_url };
    });
  }
}

/** The address of the file an answer names, if it names one. */
export function fileUrlOf(answer: StoredAnswer): string | undefined {
  if (answer.type === 'file_url') return answer.file_url;
  if (answer.type === 'multi_format') return answer.multi_format?.file_url;
  return undefined;
}
