import { type CallHandler, Injectable, type NestInterceptor } from '@nestjs/common';
import { DomainError, ErrorCode } from '@formline/errors';
import { inputLimits, jsonBytes } from '@formline/input';
import { map, type Observable } from 'rxjs';

// A reply larger than the NATS message limit (1 MB) is never delivered: the
// publish fails inside the transport and the caller waits out its timeout, a
// 503 after seconds. The bounds on input and pages keep replies well below;
// should one still be too large, the caller gets a clear error at once.
@Injectable()
export class ReplySizeInterceptor implements NestInterceptor {
  intercept(_context: unknown, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((reply: unknown) => {
        const bytes = jsonBytes(reply);
        if (bytes > inputLimits.replyBytes) {
          throw new DomainError(
            ErrorCode.ResponseTooLarge,
            `The answer would be ${bytes} bytes, more than the ${inputLimits.replyBytes} one answer may hold; ask for less (a smaller page).`,
          );
        }
        return reply;
      }),
    );
  }
}
