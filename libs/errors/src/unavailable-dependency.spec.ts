import { DomainError } from './domain-error';
import { ErrorCode } from './error-code';
import { DependencyUnavailableError, isDependencyUnavailable } from './unavailable-dependency';

// Shapes as the drivers produce them (Prisma 7 with @prisma/adapter-pg, pg,
// Node sockets, ioredis), reduced to the members the classification reads.
function prismaKnown(code: string, meta?: Record<string, unknown>) {
  return Object.assign(new Error('Invalid invocation'), {
    name: 'PrismaClientKnownRequestError',
    code,
    meta,
  });
}
function systemError(code: string) {
  return Object.assign(new Error(`connect ${code}`), { code, syscall: 'connect', errno: -111 });
}
function adapterMeta(cause: Record<string, unknown>) {
  return { driverAdapterError: { name: 'DriverAdapterError', cause } };
}

describe('isDependencyUnavailable', () => {
  it.each([
    ['a refused connection', systemError('ECONNREFUSED')],
    ['a reset connection', systemError('ECONNRESET')],
    ['Prisma: database unreachable (P1001)', prismaKnown('P1001')],
    ['Prisma: connection closed (P1017)', prismaKnown('P1017')],
    ['Prisma: pool timeout (P2024)', prismaKnown('P2024')],
    ['Prisma: transaction could not start (P2028)', prismaKnown('P2028')],
    ['Prisma: too many connections (P2037)', prismaKnown('P2037')],
    [
      'a raw query on an unreachable database (P2010, adapter kind)',
      prismaKnown('P2010', adapterMeta({ kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 1 })),
    ],
    [
      'a backend terminated by a server shutdown (SQLSTATE 57P01)',
      prismaKnown('P2010', adapterMeta({ kind: 'postgres', originalCode: '57P01' })),
    ],
    [
      'a server starting up (SQLSTATE 57P03)',
      prismaKnown('P2039', adapterMeta({ kind: 'postgres', originalCode: '57P03' })),
    ],
    ['a pg server error of class 08 (connection failure)', Object.assign(new Error('x'), { code: '08006' })],
    ['ioredis giving up a command', Object.assign(new Error('x'), { name: 'MaxRetriesPerRequestError' })],
    [
      'our pool marking a lost connection',
      new DependencyUnavailableError('PostgreSQL', { cause: new Error('lost') }),
    ],
    ['a wrapped failure (cause)', new Error('outer', { cause: systemError('ECONNREFUSED') })],
    ['a SERVICE_UNAVAILABLE domain error', new DomainError(ErrorCode.ServiceUnavailable, 'later')],
  ])('recognises %s', (_, error) => {
    expect(isDependencyUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation (P2002)', prismaKnown('P2002')],
    ['a record not found (P2025)', prismaKnown('P2025')],
    [
      'a server error of the query itself (division by zero, 22012)',
      prismaKnown('P2010', adapterMeta({ kind: 'postgres', originalCode: '22012' })),
    ],
    ['wrong credentials (P1000)', prismaKnown('P1000')],
    ['a plain error', new Error('ECONNREFUSED in the message only')],
    ['a programming error', new TypeError('x is undefined')],
    ['another domain error', new DomainError(ErrorCode.FormNotFound, 'gone')],
    ['not an error at all', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('leaves %s alone', (_, error) => {
    expect(isDependencyUnavailable(error)).toBe(false);
  });
});
