import { z } from 'zod';
import { defineRpc } from './rpc-contract';
import { Subjects } from './subjects';

// Respondents' files (`file_upload` and `multi_format` answers) live in the
// region's file store, which the media app alone opens. The gateway streams
// an upload to it and reads a file back from it over HTTP (the paths below,
// inside the region); the responses service, which keeps the uploads'
// records, asks it over NATS to delete the bytes of the records it deletes.

const id = z.string().min(1).max(200);
export const storedFileSchema = z.object({ formId: id, fieldId: id, fileName: id });
export type StoredFile = z.output<typeof storedFileSchema>;

// At most this many files a request: one S3 batch delete, and well under a NATS message.
export const respondentFilesPerDelete = 1000;

// Deletes the files' bytes; files already gone are no error (a retried batch asks again).
export const deleteRespondentFiles = defineRpc({
  subject: Subjects.mediaRespondentFileDelete,
  request: z.object({ files: z.array(storedFileSchema).min(1).max(respondentFilesPerDelete) }),
  reply: z.object({ deleted: z.int() }),
});

// The media app's HTTP routes for them (the gateway's only): POST the body
// (Content-Length required) to store it under a new name, answered 201 with
// `uploadedFileSchema`; GET a stored file (404 when there is none).
export const respondentFileUploadPath = (formId: string, fieldId: string, filename: string) =>
  `/respondent-files/${encodeURIComponent(formId)}/${encodeURIComponent(fieldId)}?filename=${encodeURIComponent(filename)}`;
export const respondentFilePath = (file: StoredFile) =>
  `/respondent-files/${encodeURIComponent(file.formId)}/${encodeURIComponent(file.fieldId)}/${encodeURIComponent(file.fileName)}`;

export const uploadedFileSchema = z.object({ file_name: z.string(), size: z.int() });
export type UploadedFile = z.output<typeof uploadedFileSchema>;
