import { z } from 'zod';
import { DomainError } from './domain-error';
import { ErrorCode, httpStatusByCode } from './error-code';
import { detailsFromIssues, formatPath } from './validation-details';

describe('DomainError', () => {
  it('round-trips through its body, as it crosses NATS', () => {
    const detail = {
      code: 'TOO_BIG',
      description: 'at most one',
      field: 'settings.milestones',
      in: 'body' as const,
    };
    const error = new DomainError(ErrorCode.ValidationError, 'Invalid form', [detail]);
    const copy = DomainError.fromBody(JSON.parse(JSON.stringify(error.toBody())));
    expect(copy).toBeInstanceOf(DomainError);
    expect(copy?.toBody()).toEqual({
      code: 'VALIDATION_ERROR',
      description: 'Invalid form',
      details: [detail],
    });
  });

  it('leaves details out when there are none', () => {
    expect(new DomainError(ErrorCode.FormNotFound, 'gone').toBody()).toEqual({
      code: 'FORM_NOT_FOUND',
      description: 'gone',
    });
  });

  it.each([null, 'x', {}, { code: 'NOT_A_CODE', description: 'x' }, { code: 'NOT_FOUND' }])(
    'refuses a body that is not an error body: %p',
    (body) => {
      expect(DomainError.fromBody(body)).toBeUndefined();
    },
  );

  // Clients retry only 5xx: a caller's mistake mapped to a 5xx would be
  // retried for ever, and an outage mapped to a 4xx would be dropped.
  it('answers 5xx only for what the caller cannot fix', () => {
    const serverSide = Object.values(ErrorCode).filter((code) => httpStatusByCode[code] >= 500);
    expect(serverSide.sort()).toEqual([ErrorCode.InternalError, ErrorCode.ServiceUnavailable].sort());
    expect(httpStatusByCode[ErrorCode.ServiceUnavailable]).toBe(503);
  });

  it('answers 404 for every missing resource and 401 for every bad credential', () => {
    for (const code of Object.values(ErrorCode)) {
      if (code.endsWith('_NOT_FOUND')) expect([code, httpStatusByCode[code]]).toEqual([code, 404]);
      if (code.startsWith('TOKEN_') && code !== ErrorCode.TokenNotFound)
        expect([code, httpStatusByCode[code]]).toEqual([code, 401]);
    }
    expect(httpStatusByCode[ErrorCode.RateLimited]).toBe(429);
    expect(httpStatusByCode[ErrorCode.InsufficientScope]).toBe(403);
  });
});

describe('validation details', () => {
  it('names nested paths the way clients write them', () => {
    expect(formatPath(['settings', 'milestones'])).toBe('settings.milestones');
    expect(formatPath(['fields', 2, 'properties', 'choices', 0, 'label'])).toBe(
      'fields[2].properties.choices[0].label',
    );
    expect(formatPath([])).toBe('');
  });

  it('turns schema issues into details', () => {
    const result = z.object({ settings: z.object({ milestones: z.array(z.string()).max(1) }) }).safeParse({
      settings: { milestones: ['a', 'b'] },
    });
    expect(result.success).toBe(false);
    expect(detailsFromIssues(result.error!.issues, 'body')).toEqual([
      { code: 'TOO_BIG', description: expect.any(String), field: 'settings.milestones', in: 'body' },
    ]);
  });
});
