import Fastify, { type FastifyInstance } from 'fastify';
import { installSecurityHeaders } from './security-headers';

describe('installSecurityHeaders', () => {
  let app: FastifyInstance;

  afterEach(() => app.close());

  const serve = async (https: boolean) => {
    app = Fastify();
    installSecurityHeaders(app, { https });
    app.get('/ok', () => Promise.resolve({ ok: true }));
    app.get('/fails', () => Promise.reject(Object.assign(new Error('no'), { statusCode: 400 })));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    return (path: string) => fetch(`http://127.0.0.1:${port}${path}`);
  };

  it('sends nosniff on every answer, errors and unknown routes included', async () => {
    const get = await serve(false);
    for (const path of ['/ok', '/fails', '/nowhere']) {
      const answer = await get(path);
      expect([path, answer.headers.get('x-content-type-options')]).toEqual([path, 'nosniff']);
      expect(answer.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('sends HSTS when the base address is https', async () => {
    const get = await serve(true);
    for (const path of ['/ok', '/nowhere']) {
      expect((await get(path)).headers.get('strict-transport-security')).toBe('max-age=31536000');
    }
  });
});
