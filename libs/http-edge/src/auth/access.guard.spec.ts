import { Controller, Get, type INestApplication, Post } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import {
  type AccessTokenPrincipal,
  type AccountOwner,
  type RpcContract,
  Subjects,
} from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { RpcClient } from '@formline/messaging';
import { hashAccessToken } from '@formline/tokens';
import { HttpErrorFilter } from '../errors/http-error.filter';
import { HTTP_EDGE_CONFIG } from '../http-edge.config';
import { RateLimiter } from '../rate-limit/rate-limiter';
import { SignInThrottle } from '../rate-limit/sign-in.throttle';
import { SubmissionThrottle } from '../rate-limit/submission.throttle';
import { FailedAuthenticationThrottle } from '../rate-limit/failed-authentication.throttle';
import { UploadThrottle } from '../rate-limit/upload.throttle';
import { ReadCache } from '../cache/read-cache';
import { TtlCache } from '../cache/ttl-cache';
import { AccessGuard } from './access.guard';
import { OwnerCredentials } from './owner-credentials.decorator';
import { Owner } from './owner.decorator';
import { Principal } from './principal.decorator';
import { Public } from './public.decorator';
import { RequiredScope } from './required-scope.decorator';
import { RouteAccessAudit, routeAccessProblems } from './route-access.audit';

@Controller('probe')
class ProbeController {
  @Get()
  @RequiredScope('forms:read')
  read(@Principal() principal: AccessTokenPrincipal) {
    return { accountId: principal.accountId };
  }

  @Post()
  @RequiredScope('forms:write')
  write() {
    return { written: true };
  }

  @Get('open')
  @Public()
  open() {
    return { open: true };
  }

  @Get('owner')
  @OwnerCredentials()
  owner(@Owner() owner: AccountOwner) {
    return owner;
  }
}

@Controller('undeclared')
class UndeclaredController {
  @Get()
  nothing() {
    return {};
  }
}

@Controller('twice')
class TwiceController {
  @Get()
  @Public()
  @RequiredScope('forms:read')
  both() {
    return {};
  }
}

const readToken = 'tfp_reader';

// The services behind the guard, answering as the global service would.
const rpc = {
  tokenChecks: 0,
  request(contract: RpcContract<never, never>, payload: Record<string, string>): Promise<unknown> {
    if (contract.subject === Subjects.accountsTokenVerify) {
      rpc.tokenChecks += 1;
      if (payload.tokenHash === hashAccessToken(readToken)) {
        return Promise.resolve({ accountId: 'acc1', region: 'eu', scopes: ['forms:read'] });
      }
      return Promise.reject(new DomainError(ErrorCode.InvalidToken, 'The access token is not valid.'));
    }
    if (contract.subject === Subjects.accountsCredentialsVerify) {
      if (payload.email === 'owner@example.com' && payload.password === 'secret-1') {
        return Promise.resolve({ accountId: 'acc1', region: 'eu' });
      }
      return Promise.reject(new DomainError(ErrorCode.AuthenticationFailed, 'Incorrect email or password.'));
    }
    return Promise.reject(new Error(`unexpected ${contract.subject}`));
  },
};
const unlimited = {
  budget: () => ({
    consume: () => Promise.resolve(),
    refund: () => Promise.resolve(),
    refuseIfSpent: () => Promise.resolve(),
  }),
};

async function appWith(
  controllers: unknown[],
  limiter: unknown = unlimited,
): Promise<NestFastifyApplication> {
  const module = await Test.createTestingModule({
    imports: [DiscoveryModule],
    controllers: controllers as never[],
    providers: [
      { provide: RpcClient, useValue: rpc },
      { provide: RateLimiter, useValue: limiter },
      // Caching off: every check asks the (fake) global service.
      { provide: ReadCache, useValue: { principals: new TtlCache(0, 0) } },
      {
        provide: HTTP_EDGE_CONFIG,
        useValue: {
          LOGIN_RATE_LIMIT_ATTEMPTS: 10,
          LOGIN_RATE_LIMIT_WINDOW_MS: 1000,
          AUTH_FAILURE_CACHE_MS: 60_000,
          AUTH_FAILURE_RATE_LIMIT_WINDOW_MS: 60_000,
        },
      },
      SignInThrottle,
      SubmissionThrottle,
      FailedAuthenticationThrottle,
      UploadThrottle,
      RouteAccessAudit,
      { provide: APP_GUARD, useClass: AccessGuard },
      { provide: APP_FILTER, useClass: HttpErrorFilter },
    ],
  }).compile();
  const app = module.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: false });
  // Over a real socket: Fastify's in-process inject needs an ESM module Jest cannot load here.
  await app.listen(0, '127.0.0.1');
  return app;
}

describe('AccessGuard', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await appWith([ProbeController]);
  });

  afterAll(async () => {
    await app.close();
  });

  async function call(method: 'GET' | 'POST', route: string, authorization?: string) {
    const response = await fetch(`${await app.getUrl()}${route}`, {
      method,
      headers: authorization ? { authorization } : {},
    });
    return { statusCode: response.status, headers: response.headers, body: (await response.json()) as any };
  }

  it('lets a token read with the scope it holds, and refuses a write it lacks the scope for', async () => {
    const read = await call('GET', '/probe', `Bearer ${readToken}`);
    expect(read.statusCode).toBe(200);
    expect(read.body).toEqual({ accountId: 'acc1' });

    const write = await call('POST', '/probe', `bearer ${readToken}`);
    expect(write.statusCode).toBe(403);
    expect(write.body).toEqual({
      code: 'INSUFFICIENT_SCOPE',
      description: 'This token lacks the scope forms:write.',
    });
    expect(write.headers.get('www-authenticate')).toBe(
      'Bearer realm="formline", error="insufficient_scope", error_description="This token lacks the scope forms:write.", scope="forms:write"',
    );
  });

  it('tells a missing token from an invalid one (RFC 6750 3.1)', async () => {
    const missing = await call('GET', '/probe');
    expect(missing.statusCode).toBe(401);
    expect(missing.body.code).toBe('AUTHENTICATION_FAILED');
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="formline"');

    const invalid = await call('GET', '/probe', 'Bearer tfp_other');
    expect(invalid.statusCode).toBe(401);
    expect(invalid.body.code).toBe('INVALID_TOKEN');
    expect(invalid.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });

  it('answers a token that failed a moment ago from memory, without asking the global service again', async () => {
    const before = rpc.tokenChecks;
    for (let i = 0; i < 3; i++) {
      const invalid = await call('GET', '/probe', 'Bearer tfp_made-up');
      expect([invalid.statusCode, invalid.body.code]).toEqual([401, 'INVALID_TOKEN']);
      expect(invalid.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    }
    expect(rpc.tokenChecks - before).toBe(1);
  });

  it('opens @Public routes to anyone, and only those', async () => {
    expect((await call('GET', '/probe/open')).body).toEqual({ open: true });
  });

  it("takes the owner's email and password on @OwnerCredentials routes, never a token", async () => {
    const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;
    const owner = await call('GET', '/probe/owner', basic('Owner@Example.com:secret-1'));
    expect(owner.statusCode).toBe(200);
    expect(owner.body).toEqual({ accountId: 'acc1', region: 'eu' });

    const wrong = await call('GET', '/probe/owner', basic('owner@example.com:nope'));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic realm="formline"/);
    expect((await call('GET', '/probe/owner', `Bearer ${readToken}`)).statusCode).toBe(401);
  });
});

describe('AccessGuard, an address over its failed authentications', () => {
  // Every budget unlimited but the address's failures, spent at will.
  let spent = false;
  const failuresSpendable = {
    budget: (options: { name: string }) => ({
      ...unlimited.budget(),
      refuseIfSpent: () =>
        spent && options.name === 'auth-failures-address'
          ? Promise.reject(
              new DomainError(ErrorCode.RateLimited, 'Too many failed authentications from this address.'),
            )
          : Promise.resolve(),
    }),
  };
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await appWith([ProbeController], failuresSpendable);
  });

  afterAll(async () => {
    await app.close();
  });

  const read = async (token: string) =>
    (await fetch(`${await app.getUrl()}/probe`, { headers: { authorization: `Bearer ${token}` } })).status;

  it('still serves a token found valid before, once its check has left the read cache', async () => {
    // The read cache is off here: every request checks its token again, as one does past the cache's life.
    expect(await read(readToken)).toBe(200);
    spent = true;
    expect(await read('tfp_guessed')).toBe(429);
    expect(await read(readToken)).toBe(200);
  });
});

describe('RouteAccessAudit', () => {
  it('names every route without exactly one access declaration', () => {
    expect(routeAccessProblems([ProbeController, UndeclaredController, TwiceController])).toEqual([
      expect.stringMatching(/^UndeclaredController\.nothing: none/),
      expect.stringMatching(/^TwiceController\.both: scope and public/),
    ]);
  });

  it('stops the gateway at boot when a route declares no access', async () => {
    let app: INestApplication | undefined;
    await expect(
      (async () => {
        app = await appWith([ProbeController, UndeclaredController]);
      })(),
    ).rejects.toThrow(/UndeclaredController\.nothing/);
    await app?.close();
  });
});
