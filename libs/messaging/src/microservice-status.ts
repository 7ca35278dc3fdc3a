import type { INestMicroservice } from '@nestjs/common';

// Follows a NestJS NATS microservice's connection, for its readiness check.
export function followConnection(app: INestMicroservice): () => boolean {
  let connected = false;
  app.status.subscribe((status) => {
    connected = status === 'connected';
  });
  return () => connected;
}
