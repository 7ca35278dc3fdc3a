import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  SetMetadata,
} from '@nestjs/common';
import { DomainError, ErrorCode } from '@formline/errors';
import { inputLimits, jsonBytes } from '@formline/input';
import { map, type Observable } from 'rxjs';

const sizedReply = 'formline:sized-reply';

// Marks a handler whose replies bound their own size in bytes as they are
// made (an export page measures each response it adds): the interceptor does
// not write the whole reply once more only to measure it.
export const SizedReply = () => SetMetadata(sizedReply, true);

// A reply larger than the NATS message limit (1 MB) is never delivered: the
// publish fails inside the transport and the caller waits out its timeout, a
// 503 after seconds. The bounds on input and pages keep replies well below;
// should one still be too large, the caller gets a clear error at once.
@Injectable()
export class ReplySizeInterceptor implements NestInterceptor {
  intercept(context: Partial<Pick<ExecutionContext, 'getHandler'>>, next: CallHandler): Observable<unknown> {
    const handler = context.getHandler?.();
    if (handler && Reflect.getMetadata(sizedReply, handler) === true) return next.handle();
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
