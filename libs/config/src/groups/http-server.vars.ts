import { z } from 'zod';
import { port } from '../setting.builders';

// The gateway and the media app, each serving HTTP: where it listens. The
// validation is the group's; each app's schema says what the server is for
// (`.describe()`), so the reference gives each app's meaning.
export const httpServerVars = {
  HTTP_HOST: z.string().min(1).default('127.0.0.1').describe('Address the HTTP server listens on.'),
  HTTP_PORT: port('Port of the HTTP server.'),
};
