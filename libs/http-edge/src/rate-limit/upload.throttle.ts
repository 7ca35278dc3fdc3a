import { Inject, Injectable } from '@nestjs/common';
import { DomainError, ErrorCode } from '@formline/errors';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { HTTP_EDGE_CONFIG, type HttpEdgeConfig } from '../http-edge.config';
import { type Budget, RateLimiter } from './rate-limiter';
import { type Held, UploadReservation } from './upload-reservation';

// Storage budgets of respondents' uploads (docs/security.md, "Storage
// budgets"): an upload is stored at once and kept a day before any response
// claims it, so the submissions' request budgets alone let one client park
// gigabytes. Without a token, an upload counts its bytes and one file
// against its client address and against its form (the form's budget is
// large: reached, it refuses that form's honest respondents too, and only
// them); with a token, against the token's account, whatever the form.
@Injectable()
export class UploadThrottle {
  private readonly bytesPerAddress: Budget;
  private readonly filesPerAddress: Budget;
  private readonly bytesPerForm: Budget;
  private readonly filesPerForm: Budget;
  private readonly bytesPerAccount: Budget;
  private readonly filesPerAccount: Budget;
  private readonly maxFileBytes: number;

  constructor(limiter: RateLimiter, @Inject(HTTP_EDGE_CONFIG) config: HttpEdgeConfig) {
    const windowMs = config.UPLOAD_BUDGET_WINDOW_MS;
    const budget = (name: string, limit: number, description: string) =>
      limiter.budget({ name, limit, windowMs }, description);
    this.bytesPerAddress = budget(
      'upload-bytes-address',
      config.UPLOAD_BYTES_PER_ADDRESS,
      'Too many bytes uploaded from this address.',
    );
    this.filesPerAddress = budget(
      'upload-files-address',
      config.UPLOAD_FILES_PER_ADDRESS,
      'Too many files uploaded from this address.',
    );
    this.bytesPerForm = budget(
      'upload-bytes-form',
      config.UPLOAD_BYTES_PER_FORM,
      'Too many bytes uploaded to this form.',
    );
    this.filesPerForm = budget(
      'upload-files-form',
      config.UPLOAD_FILES_PER_FORM,
      'Too many files uploaded to this form.',
    );
    this.bytesPerAccount = budget(
      'upload-bytes-account',
      config.UPLOAD_BYTES_PER_ACCOUNT,
      "Too many bytes uploaded with this account's tokens.",
    );
    this.filesPerAccount = budget(
      'upload-files-account',
      config.UPLOAD_FILES_PER_ACCOUNT,
      "Too many files uploaded with this account's tokens.",
    );
    this.maxFileBytes = config.FILE_MAX_BYTES;
  }

  // Reserves the declared size and one file against the caller's budgets,
  // before the body is read: 411 for a body that declares no size (chunked),
  // 413 for a file declared over FILE_MAX_BYTES, 429 (Retry-After) when a
  // budget cannot take it; nothing stays held then.
  async reserve(request: AuthenticatedRequest): Promise<UploadReservation> {
    const declared = declaredBytes(request.headers['content-length']);
    if (declared === undefined) {
      throw new DomainError(
        ErrorCode.LengthRequired,
        'Send the file with its Content-Length: an upload is counted against its budgets before it is read.',
      );
    }
    if (declared > this.maxFileBytes) {
      throw new DomainError(ErrorCode.PayloadTooLarge, `A file may hold at most ${this.maxFileBytes} bytes.`);
    }
    const principal = request.principal;
    const byKey: Array<[Budget, Budget, string]> = principal
      ? [[this.bytesPerAccount, this.filesPerAccount, principal.accountId]]
      : [
          [this.bytesPerAddress, this.filesPerAddress, request.ip],
          [this.bytesPerForm, this.filesPerForm, request.params?.form_id ?? ''],
        ];
    const bytes: Held[] = [];
    const files: Held[] = [];
    const reservation = new UploadReservation(bytes, files);
    try {
      for (const [bytesBudget, filesBudget, key] of byKey) {
        await filesBudget.take(key, 1);
        files.push({ budget: filesBudget, key, points: 1 });
        await bytesBudget.take(key, declared);
        bytes.push({ budget: bytesBudget, key, points: declared });
      }
    } catch (error) {
      await reservation.release();
      throw error;
    }
    return reservation;
  }
}

// The body's declared size; undefined when it declares none (chunked).
function declaredBytes(header: string | string[] | undefined): number | undefined {
  if (typeof header !== 'string' || !/^\d{1,15}$/.test(header)) return undefined;
  return Number(header);
}
