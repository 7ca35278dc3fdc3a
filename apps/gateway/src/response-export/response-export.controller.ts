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
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { Principal, RequiredScope, ReadCache, QueryPipe, RequestId, ApiOperation } from '@formline/http-edge';
import { answeredFiles } from '../files/answered-files';
import { GATEWAY_CONFIG, type GatewayConfig } from '@formline/app-config';
import { MediaAppClient } from '../media-app/media-app.client';
import { ResponseCsvWriter } from './response-csv.writer';
import { responseExportQuery, responseFilesQuery, toResponseExportQuery } from './response-export.query';
import { type ExportRequest, exportPages, firstExportPage, linesOf } from './response-pages';
import { tarEnd, tarEntryHead, tarPadding } from './tar.writer';

const mediaTypes = { jsonl: 'application/x-ndjson', csv: 'text/csv; charset=utf-8' } as const;
const exportErrors = [ErrorCode.FormNotFound, ErrorCode.Forbidden, ErrorCode.WrongRegion];

// A form's responses whole, as a stream: JSON lines or CSV, and their files
// as one tar archive. The gateway pulls bounded pages from the responses
// service and writes each to the client before it asks for more than one
// page ahead (the stream waits while the client's socket is full), so an
// export of any size holds a page or two in memory (and the files archive a
// chunk of one file, streamed from the media app). Only the form's region
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
    private readonly media: MediaAppClient,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
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
    const entries = this.archive(formId, exportPages(this.rpc, request, requestId, first), requestId);
    this.stream(reply, entries, 'application/x-tar', `${formId}-files.tar`);
  }

  // One file at a time, streamed from the media app as the client takes it:
  // its size (the entry's header) first, then its bytes chunk by chunk. A
  // file that ends short of its size fails the archive (the connection is
  // aborted), as any failure once the answer has begun.
  private async *archive(
    formId: string,
    pages: AsyncIterable<Buffer>,
    requestId: string,
  ): AsyncGenerator<Buffer> {
    for await (const page of pages) {
      for (const line of linesOf(page)) {
        const response = JSON.parse(line) as ResponseResource;
        for (const file of answeredFiles(this.regionBase, formId, response)) {
          const stored = await this.media.openFile(requestId, { formId, ...file });
          if (!stored) continue;
          const name = `${response.token}/${file.fieldId}/${file.fileName}`;
          for (const part of tarEntryHead(name, stored.size, new Date(response.submitted_at))) yield part;
          let sent = 0;
          for await (const chunk of stored.body as AsyncIterable<Buffer>) {
            sent += chunk.length;
            yield chunk;
          }
          if (sent !== stored.size)
            throw new Error(`${name} ended after ${sent} of its ${stored.size} bytes`);
          yield tarPadding(stored.size);
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
