import { DomainError, ErrorCode } from '@formline/errors';
import { rpcErrorBody } from './rpc-error.filter';

// What leaves a service for each kind of failure, and what is logged.
describe('rpcErrorBody', () => {
  const logger = () => ({ warn: jest.fn(), error: jest.fn() });

  it('sends a domain error as it is', () => {
    const log = logger();
    expect(rpcErrorBody(new DomainError(ErrorCode.NotFound, 'gone'), 'r1', log)).toMatchObject({
      code: 'NOT_FOUND',
      description: 'gone',
    });
    expect(log.error).not.toHaveBeenCalled();
  });

  it("answers a write that met another request's as CONFLICT, logged", () => {
    const log = logger();
    const taken = Object.assign(new Error('Unique constraint failed'), { code: 'P2002' });
    expect(rpcErrorBody(taken, 'r1', log)).toMatchObject({
      code: 'CONFLICT',
      details: [{ code: 'CONCURRENT_CHANGE' }],
    });
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({ requestId: 'r1', concurrentChange: true }),
    );
  });

  it('answers a database away as SERVICE_UNAVAILABLE', () => {
    const log = logger();
    const away = Object.assign(new Error('connect'), { code: 'ECONNREFUSED' });
    expect(rpcErrorBody(away, 'r1', log).code).toBe('SERVICE_UNAVAILABLE');
  });

  it('logs anything else with an id, and sends only the id', () => {
    const log = logger();
    const body = rpcErrorBody(new Error('secret internals'), 'r1', log);
    expect(body.code).toBe('INTERNAL_ERROR');
    expect(body.description).not.toContain('secret');
    expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ requestId: 'r1' }));
  });
});
