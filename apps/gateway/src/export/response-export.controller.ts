import { Readable } from 'node:stream';
import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import { regionBaseUrls } from '@formline/config';
import {
  type AccessTokenPrincipal,
  type FormSnapshot,
  getFormSnapshot,
  type ResponseResource,
} from '@formline/contracts';
import { ErrorCode } from '@formline/errors';
import type { FormDefinition } from '@formline/form-definition';
import { RpcClient } from '@formline/messaging';
import { fileKey, isStoredFileName, type ObjectStore, responseFileUrl } from '@formline/object-storage';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { Principal, RequiredScope, ReadCache, QueryPipe, RequestId, ApiOperation } from '@formline/http-edge';
import { FILE_STORE } from '../files/file.store';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';
import { ResponseCsvWriter } from './response-csv.writer';
import { responseExportQuery, responseFilesQuery, toResponseExportQuery } from './response-export.query';
import { type ExportRequest, exportPages, firstExportPage, linesOf } from './response-pages';
import { tarEnd, tarEntry } from './tar.writer';

const mediaTypes = { jsonl: 'application/x-ndjson', csv: 'text/csv; charset=utf-8' } as const;
const exportErrors = [ErrorCode.FormNotFound, ErrorCode.Forbidden, ErrorCode.WrongRegion];
const safeSegment = /^[\w-]{1,100}$/;

// A form's responses whole, as a stream: JSON lines or CSV, and their files
// as one tar archive. The gateway pulls bounded pages from the responses
// service and writes each to the client before it asks for more than one
// page ahead (the stream waits while the client's socket is full), so an
// export of any size holds a page or two in memory. Only the form's region
// serves it (421 elsewhere). Once the answer has begun its status cannot
// change: a failure then aborts the connection, so a cut export never reads
// as a whole one, and the client resumes with `after` set to the last token
// it received.
@Controller('forms/:form_id/responses')
export class ResponseExportController {
  private readonly regionBase: string;

  constructor(
    private readonly rpc: RpcClient,
    private readonly cache: ReadCache,
    @Inject(FILE_STORE) private readonly store: ObjectStore,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {
    this.regionBase = regionBaseUrls(config)[config.REGION];
  }

  @Get('export')
  @RequiredScope('responses:read')
  @ApiOperation({
    summary: "Export a form's responses",
    description:
      'Every response the filters select (the listing’s filters and `sort`; no pages), streamed: ' +
      '`format=jsonl` (the default) writes one response a line as the listing shows it; ' +
      '`format=csv` one row a response with a column per question of the form, its hidden fields, ' +
      "variables, ending and metadata (a cell that would start a formula is prefixed with `'`). " +
      'Oldest first unless `sort` says otherwise. Each response carries its token; a cut export resumes ' +
      'with `after` set to the last token received. An export that fails once begun ends the connection ' +
      'without ending the stream. Only the form’s region serves it.',
    responses: {
      200: {
        description: 'The responses, as JSON lines (`application/x-ndjson`) or CSV (`text/csv`).',
        body: null,
        contentType: ['application/x-ndjson', 'text/csv'],
      },
    },
    errors: exportErrors,
  })
  async export(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('form_id') formId: string,
    @Query(new QueryPipe(responseExportQuery)) query: z.output<typeof responseExportQuery>,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { format, ...filters } = query;
    const request: ExportRequest = {
      accountId: principal.accountId,
      formId,
      query: toResponseExportQuery(filters),
    };
    const first = await firstExportPage(this.rpc, request, requestId);
    const pages = exportPages(this.rpc, request, requestId, first);
    const csv =
      format === 'csv'
        ? new ResponseCsvWriter(
            (await this.snapshot(formId, requestId)).definition as FormDefinition,
            filters.fields,
          )
        : undefined;
    // JSON lines: the pages' bytes as they came, written to the socket as they are.
    const chunks = csv ? csvChunks(csv, pages) : pages;
    this.stream(
      reply,
      chunks,
      format === 'csv' ? mediaTypes.csv : mediaTypes.jsonl,
      `${formId}-responses.${format}`,
    );
  }

  @Get('files')
  @RequiredScope('responses:read')
  @ApiOperation({
    summary: "Download the files of a form's responses",
    description:
      'Every file the selected responses answer with (the listing’s filters), as one tar archive: ' +
      'one entry a file, named `{response token}/{field id}/{file name}`, in the export’s order. ' +
      'Only the form’s region serves it.',
    responses: {
      200: { description: 'A tar archive.', body: null, contentType: 'application/x-tar' },
    },
    errors: exportErrors,
  })
  async files(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('form_id') formId: string,
    @Query(new QueryPipe(responseFilesQuery)) query: z.output<typeof responseFilesQuery>,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const request: ExportRequest = {
      accountId: principal.accountId,
      formId,
      query: toResponseExportQuery(query),
    };
    const first = await firstExportPage(this.rpc, request, requestId);
    const entries = this.archive(formId, exportPages(this.rpc, request, requestId, first));
    this.stream(reply, entries, 'application/x-tar', `${formId}-files.tar`);
  }

  // One file at a time: its bytes are read, written and let go before the next.
  private async *archive(formId: string, pages: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const page of pages) {
      for (const line of linesOf(page)) {
        const response = JSON.parse(line) as ResponseResource;
        for (const file of filesOf(this.regionBase, formId, response)) {
          const bytes = await this.store.get(
            fileKey(this.config.REGION, formId, file.fieldId, file.fileName),
          );
          if (!bytes) continue;
          const name = `${response.token}/${file.fieldId}/${file.fileName}`;
          for (const part of tarEntry(name, bytes, new Date(response.submitted_at))) yield part;
        }
      }
    }
    yield tarEnd();
  }

  private snapshot(formId: string, requestId: string): Promise<FormSnapshot> {
    return this.cache.snapshots.getOrLoad(formId, () =>
      this.rpc.request(getFormSnapshot, { formId }, requestId),
    );
  }

  // Fastify pipes the stream to the socket, reading from it only as the
  // socket drains (one chunk buffered ahead), and destroys it when the
  // client goes, which ends the generators and with them the asking.
  private stream(
    reply: FastifyReply,
    chunks: AsyncIterable<string | Buffer>,
    contentType: string,
    fileName: string,
  ): void {
    void reply
      .header('Content-Type', contentType)
      .header('Content-Disposition', `attachment; filename="${fileName}"`)
      .header('Cache-Control', 'private, no-store')
      .send(Readable.from(chunks, { objectMode: false, highWaterMark: 1 }));
  }
}

// Written a few responses at a time, about csvBatchChars of their JSON: a
// page's rows as one string would go to V8's large-object space (over 128 KB),
// which only a full collection frees.
const csvBatchChars = 32 * 1024;

async function* csvChunks(csv: ResponseCsvWriter, pages: AsyncIterable<Buffer>): AsyncGenerator<string> {
  yield csv.header();
  for await (const page of pages) {
    let batch: ResponseResource[] = [];
    let chars = 0;
    for (const line of linesOf(page)) {
      batch.push(JSON.parse(line) as ResponseResource);
      chars += line.length;
      if (chars >= csvBatchChars) {
        yield csv.rows(batch);
        batch = [];
        chars = 0;
      }
    }
    if (batch.length > 0) yield csv.rows(batch);
  }
}

// The files a response answers with, where the Responses API shows them.
function filesOf(
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
