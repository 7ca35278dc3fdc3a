import type { FormSnapshot } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import type { RpcClient } from '@formline/messaging';
import type { FastifyReply } from 'fastify';
import { type ReadCache } from '@formline/http-edge';
import type { GatewayConfig } from '@formline/app-config';
import { SubmissionTargets } from './submission-target';

const config = {
  REGION: 'us',
  BASE_URL: 'https://us.example.test/',
  EU_BASE_URL: 'https://eu.example.test',
} as GatewayConfig;

const snapshot = (region: 'us' | 'eu'): FormSnapshot =>
  ({ accountId: 'acc1', region, isPublic: true, definition: {} }) as unknown as FormSnapshot;

const targetsFor = (form: FormSnapshot) =>
  new SubmissionTargets(
    {} as RpcClient,
    { snapshots: { getOrLoad: () => Promise.resolve(form) } } as unknown as ReadCache,
    config,
  );

const owner = { principal: { accountId: 'acc1' } as never, requestId: 'req-1' };
const submit = { verb: 'submit' } as const;

class FakeReply {
  code?: number;
  headers: Record<string, string> = {};
  status(code: number) {
    this.code = code;
    return this;
  }
  header(name: string, value: string) {
    this.headers[name] = value;
    return this;
  }
}

describe('SubmissionTargets.elsewhere', () => {
  it('answers nothing for a form whose responses live in this region', async () => {
    const targets = targetsFor(snapshot('us'));
    const target = await targets.locate('f1', owner, submit);
    const reply = new FakeReply();
    const how = {
      path: '/forms/f1/submissions',
      takes: 'submissions',
      redirect: reply as unknown as FastifyReply,
    };
    expect(targets.elsewhere(target, how)).toBeUndefined();
    expect(reply.code).toBeUndefined();
  });

  it("redirects with 307 to the same path in the form's region, and says so in the body", async () => {
    const targets = targetsFor(snapshot('eu'));
    const target = await targets.locate('f1', owner, submit);
    const reply = new FakeReply();
    const body = targets.elsewhere(target, {
      path: '/forms/f1/submissions/partial',
      takes: 'partial responses',
      redirect: reply as unknown as FastifyReply,
    });
    expect(reply.code).toBe(307);
    expect(reply.headers.Location).toBe('https://eu.example.test/forms/f1/submissions/partial');
    expect(body).toEqual({
      code: ErrorCode.WrongRegion,
      description:
        'This form takes partial responses at https://eu.example.test/forms/f1/submissions/partial.',
    });
  });

  it('refuses with WRONG_REGION naming the address when there is no reply to redirect', async () => {
    const targets = targetsFor(snapshot('eu'));
    const target = await targets.locate('f1', owner, submit);
    let thrown: unknown;
    try {
      targets.elsewhere(target, { path: '/forms/f1/files/q1', takes: 'files' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DomainError);
    expect((thrown as DomainError).code).toBe(ErrorCode.WrongRegion);
    expect((thrown as DomainError).message).toContain('https://eu.example.test/forms/f1/files/q1');
  });
});
