import 'reflect-metadata';
import {
  type CanActivate,
  Controller,
  type ExecutionContext,
  Get,
  Injectable,
  Module,
  Param,
  Res,
  UnauthorizedException,
} from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { bearerTokenFrom, hashAccessToken, isBearerTokenShape } from '@formline/tokens';
import type { FastifyReply, FastifyRequest } from 'fastify';

// The read path's floor on the stack the gateway is built on: NestJS on
// Fastify answering the same form JSON after the same bearer check as the
// bare Fastify baseline, through one global guard and one controller, and
// nothing else (no logging, no metrics, no request id, no NATS). What the
// gateway spends beyond this is its own; what this spends beyond bare
// Fastify is the framework's.
interface Input {
  body: string;
  etag: string;
  tokenHashes: string[];
}

const input = JSON.parse(process.argv[2]) as Input;
const known = new Set(input.tokenHashes);

@Injectable()
class BearerGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const token = bearerTokenFrom(request.headers.authorization);
    if (!token || !isBearerTokenShape(token) || !known.has(hashAccessToken(token))) {
      throw new UnauthorizedException({
        code: 'INVALID_TOKEN',
        description: 'The access token is not valid.',
      });
    }
    return true;
  }
}

@Controller('forms')
class FormsController {
  @Get(':form_id')
  retrieve(@Param('form_id') _formId: string, @Res({ passthrough: true }) reply: FastifyReply): string {
    void reply.header('ETag', input.etag).type('application/json; charset=utf-8');
    return input.body;
  }
}

@Module({ controllers: [FormsController], providers: [{ provide: APP_GUARD, useClass: BearerGuard }] })
class FloorModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(FloorModule, new FastifyAdapter(), {
    logger: false,
  });
  await app.listen(0, '127.0.0.1');
  process.stdout.write(`ready ${JSON.stringify({ url: await app.getUrl() })}\n`);
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

void main();
