import type { PipeTransform } from '@nestjs/common';
import { DomainError, ErrorCode, detailsFromIssues } from '@formline/errors';
import type { z } from 'zod';

// Validates a NATS request against its contract before the handler sees it.
// Use as `@Payload(new ContractPipe(someContract.request))`.
export class ContractPipe<S extends z.ZodType> implements PipeTransform<unknown, z.output<S>> {
  constructor(private readonly schema: S) {}

  transform(value: unknown): z.output<S> {
    const result = this.schema.safeParse(value);
    if (result.success) return result.data;
    throw new DomainError(
      ErrorCode.ValidationError,
      'The request does not match its contract.',
      detailsFromIssues(result.error.issues, 'body'),
    );
  }
}
