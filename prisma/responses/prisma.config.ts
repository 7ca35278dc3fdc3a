import path from 'node:path';
import { defineConfig } from 'prisma/config';

// Offline: the Prisma CLI wants its native schema engine even for `generate`,
// which does not use it; a stub answers. Migrations run through tools/db.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(__dirname, '../../tools/db/schema-engine-stub.sh');

export default defineConfig({
  schema: path.join(__dirname, 'schema.prisma'),
  migrations: { path: path.join(__dirname, 'migrations') },
  // Optional so that `prisma generate` needs no database; tools/db sets it per database.
  datasource: { url: process.env.DATABASE_URL },
});
