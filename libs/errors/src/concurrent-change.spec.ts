import { DomainError } from './domain-error';
import { ErrorCode } from './error-code';
import { concurrentChangeError, isConcurrentChange } from './concurrent-change';

// Shapes as the drivers produce them (Prisma 7 with @prisma/adapter-pg, pg),
// reduced to the members the classification reads.
function prismaKnown(code: string, meta?: Record<string, unknown>) {
  return Object.assign(new Error('Invalid invocation'), {
    name: 'PrismaClientKnownRequestError',
    code,
    meta,
  });
}
const pgError = (code: string) => Object.assign(new Error('x'), { name: 'DatabaseError', code });
const adapterMeta = (originalCode: string) => ({
  driverAdapterError: { name: 'DriverAdapterError', cause: { kind: 'postgres', originalCode } },
});

describe('isConcurrentChange', () => {
  it.each([
    ['Prisma: a unique key taken (P2002)', prismaKnown('P2002')],
    ['Prisma: a reference gone (P2003)', prismaKnown('P2003')],
    ['Prisma: a write conflict or deadlock (P2034)', prismaKnown('P2034')],
    ['a raw query meeting a taken key (P2010, 23505)', prismaKnown('P2010', adapterMeta('23505'))],
    ['a raw query in a deadlock (P2010, 40P01)', prismaKnown('P2010', adapterMeta('40P01'))],
    ['pg: a unique violation (23505)', pgError('23505')],
    ['pg: a foreign key violation (23503)', pgError('23503')],
    ['pg: a serialization failure (40001)', pgError('40001')],
    ['a wrapped failure (cause)', new Error('outer', { cause: pgError('40P01') })],
  ])('recognises %s', (_, error) => {
    expect(isConcurrentChange(error)).toBe(true);
  });

  it.each([
    ['a check violation (23514): the row itself is wrong', pgError('23514')],
    ['a raw query dividing by zero (22012)', prismaKnown('P2010', adapterMeta('22012'))],
    ['Prisma: database unreachable (P1001)', prismaKnown('P1001')],
    ['Prisma: a record not found (P2025), as a read that must find one says', prismaKnown('P2025')],
    ['a domain error', new DomainError(ErrorCode.NotFound, 'gone')],
    ['a plain error', new Error('bug')],
    ['no error at all', undefined],
  ])('leaves alone %s', (_, error) => {
    expect(isConcurrentChange(error)).toBe(false);
  });

  it('answers 409 CONFLICT with the detail CONCURRENT_CHANGE', () => {
    expect(concurrentChangeError().toBody()).toEqual({
      code: 'CONFLICT',
      description: 'Another request changed this at the same moment; send the request again.',
      details: [
        {
          code: 'CONCURRENT_CHANGE',
          description: 'changed by another request meanwhile',
          field: '',
          in: 'body',
        },
      ],
    });
  });
});
