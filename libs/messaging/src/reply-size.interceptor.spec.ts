import { DomainError, ErrorCode } from '@formline/errors';
import { inputLimits } from '@formline/input';
import { firstValueFrom, of } from 'rxjs';
import { ReplySizeInterceptor } from './reply-size.interceptor';

describe('ReplySizeInterceptor', () => {
  const interceptor = new ReplySizeInterceptor();
  const reply = (value: unknown) => firstValueFrom(interceptor.intercept({}, { handle: () => of(value) }));

  it('passes a reply that fits in one NATS message', async () => {
    const value = { items: ['x'.repeat(inputLimits.replyBytes - 100)] };
    await expect(reply(value)).resolves.toBe(value);
  });

  it('turns a reply over the limit into RESPONSE_TOO_LARGE', async () => {
    const error = await reply({ items: ['é'.repeat(inputLimits.replyBytes / 2)] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe(ErrorCode.ResponseTooLarge);
  });
});
