#!/usr/bin/env node
// Offline `prisma migrate …` for one of the project's databases, with Prisma 7.
//
//   DATABASE_URL=postgresql://… node tools/db/prisma-migrate.cjs <global|responses|webhooks> migrate deploy
//   DATABASE_URL=postgresql://… node tools/db/prisma-migrate.cjs global migrate dev --name add_x
//
// It runs Prisma's own @prisma/migrate commands, but on the wasm schema engine
// talking to PostgreSQL through the pg driver adapter, so the native schema
// engine (a download, impossible here) is never needed. The database named in
// DATABASE_URL is created first when it does not exist.
// This relies on @prisma/migrate internals: re-test it whenever Prisma is upgraded.
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const { pathToFileURL } = require('node:url');
const { createRequire } = require('node:module');

// The @prisma/migrate commands still run a "can connect" probe through the native
// binary before using the engine; the stub answers it (and --version) and fails anything else.
process.env.PRISMA_SCHEMA_ENGINE_BINARY = path.join(__dirname, 'schema-engine-stub.sh');

const m = require('@prisma/migrate');
const { PrismaPg } = require('@prisma/adapter-pg');
// Resolve transitive packages from the packages that depend on them (no hoisting assumptions).
const fromMigrate = createRequire(require.resolve('@prisma/migrate'));
const { loadConfigFromFile } = fromMigrate('@prisma/config');
const { bindMigrationAwareSqlAdapterFactory } = fromMigrate('@prisma/driver-adapter-utils');
const pgPath = createRequire(require.resolve('@prisma/adapter-pg')).resolve('pg');
const pg = require(pgPath); // the very `pg` instance @prisma/adapter-pg uses
const { parse: parsePgUrl } = createRequire(pgPath)('pg-connection-string');

const databases = ['global', 'responses', 'webhooks'];

// 1. The engine's Postgres describer reads pg_catalog columns of internal types ("char",
//    name, regproc, …) that @prisma/adapter-pg rejects (UnsupportedNativeDataType;
//    prisma/prisma#27403). In this process only, hand them to the adapter as text.
const CATALOG_TEXT_OIDS = new Set([18, 19, 22, 24, 28, 29, 30, 194, 1003, 1033, 1034, 2205, 2206, 3734]);
const handleRowDescription = pg.Query.prototype.handleRowDescription;
pg.Query.prototype.handleRowDescription = function (msg) {
  for (const f of msg.fields) if (CATALOG_TEXT_OIDS.has(f.dataTypeID)) f.dataTypeID = 25;
  return handleRowDescription.call(this, msg);
};

function pgConfigFrom(url) {
  const c = parsePgUrl(url);
  return {
    host: c.host,
    port: c.port ? Number(c.port) : undefined,
    user: c.user,
    password: c.password,
    database: c.database,
    ssl: c.ssl,
    options: c.options,
  };
}

// 2. PrismaPg.connectToShadowDb() (a) spreads the config into new Pool({...config, database}),
//    and pg lets a connectionString override `database`, so the "shadow" database would be
//    the real one; (b) drops the shadow database before closing its pool ("being accessed
//    by other users"). Pass discrete settings and drop it after closing.
class PrismaPgMigrate extends PrismaPg {
  constructor(url) {
    super(pgConfigFrom(url));
  }
  async connect() {
    return sendingScriptsWhole(await super.connect());
  }
  async connectToShadowDb() {
    const admin = await this.connect();
    const database = `prisma_migrate_shadow_db_${globalThis.crypto.randomUUID()}`;
    await admin.executeScript(`CREATE DATABASE "${database}"`);
    const shadow = sendingScriptsWhole(await new PrismaPg({ ...this.config, database }).connect());
    const disposeShadow = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await disposeShadow();
      await admin.executeScript(`DROP DATABASE IF EXISTS "${database}"`);
      await admin.dispose();
    };
    return shadow;
  }
}

// 5. The adapter's executeScript splits a migration at every ';', also inside a
//    function's body ($$ … $$), and sends the pieces one by one. Send the script
//    whole instead: PostgreSQL runs the statements of one simple query in one
//    transaction, so a migration that fails leaves nothing half-applied.
function sendingScriptsWhole(adapter) {
  adapter.executeScript = async function executeScript(script) {
    try {
      await this.client.query(script);
    } catch (error) {
      this.onError(error);
    }
  };
  return adapter;
}

async function createDatabaseIfMissing(url) {
  const { database, ...server } = pgConfigFrom(url);
  const client = new pg.Client({ ...server, database: 'postgres' });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

let SchemaEngineClass;
async function loadWasmSchemaEngine() {
  // Same as @prisma/internals' wasmSchemaEngineLoader, which only works inside the
  // bundled CLI (it looks for ../build/schema_engine_bg.wasm).
  if (SchemaEngineClass) return SchemaEngineClass;
  const glue = createRequire(fromMigrate.resolve('@prisma/internals')).resolve(
    '@prisma/schema-engine-wasm/schema_engine_bg',
  );
  const runtime = await import(pathToFileURL(glue).href);
  const bytes = fs.readFileSync(path.join(path.dirname(glue), 'schema_engine_bg.wasm'));
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), {
    './schema_engine_bg.js': runtime,
  });
  runtime.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start();
  return (SchemaEngineClass = runtime.SchemaEngine);
}

// Prisma 7's Migrate.setup() only knows the native engine (SchemaEngineCLI); swap in the wasm one.
m.Migrate.setup = async function ({ schemaContext, schemaEngineConfig, ...rest }) {
  const url = schemaEngineConfig?.datasource?.url;
  if (!url) throw new Error('Set DATABASE_URL');
  const adapter = bindMigrationAwareSqlAdapterFactory(new PrismaPgMigrate(url));
  const SchemaEngine = await loadWasmSchemaEngine();
  const debug = fromMigrate('@prisma/debug').default('prisma:schemaEngine:wasm');
  const wasm = await SchemaEngine.new({ datamodels: schemaContext?.schemaFiles }, (l) => debug(l), adapter);
  const engine = new m.SchemaEngineWasm({ engine: wasm, errorRegistry: adapter.errorRegistry });

  // 3. evaluateDataLoss has no shadow-database factory in the wasm engine and relies on the
  //    migrations->schema cache; after `migrate dev` applied pending migrations that cache is
  //    cold ("PostgreSQL shadow DB must be provided through an external factory"). Warm it.
  const evaluateDataLoss = engine.evaluateDataLoss.bind(engine);
  engine.evaluateDataLoss = async (input) => {
    await engine.diagnoseMigrationHistory({
      migrationsList: input.migrationsList,
      filters: input.filters,
      optInToShadowDatabase: true,
    });
    return evaluateDataLoss(input);
  };
  // 4. `migrate dev --create-only` stops the engine twice; a second free() of the wasm
  //    object throws "null pointer passed to rust".
  const stop = engine.stop.bind(engine);
  let stopped = false;
  engine.stop = async () => {
    if (!stopped) {
      stopped = true;
      await stop();
    }
  };

  return new m.Migrate({ engine, schemaContext, ...rest });
};

async function main() {
  const [database, cmd, ...args] = process.argv.slice(2);
  const commands = {
    migrate: m.MigrateCommand.new(
      {
        dev: m.MigrateDev.new('prisma'),
        deploy: m.MigrateDeploy.new('prisma'),
        status: m.MigrateStatus.new('prisma'),
        reset: m.MigrateReset.new('prisma'),
        resolve: m.MigrateResolve.new('prisma'),
        diff: m.MigrateDiff.new('prisma'),
      },
      'prisma',
    ),
  };
  if (!databases.includes(database) || !commands[cmd]) {
    console.error(`usage: prisma-migrate.cjs <${databases.join('|')}> migrate <subcommand> [options]`);
    return 2;
  }
  if (!process.env.DATABASE_URL) {
    console.error('DATABASE_URL is missing: the postgresql:// URL of the database to migrate.');
    return 2;
  }
  await createDatabaseIfMissing(process.env.DATABASE_URL);
  const configFile = path.join(__dirname, '../../prisma', database, 'prisma.config.ts');
  const { config, error } = await loadConfigFromFile({ configFile });
  if (error) {
    console.error(`${configFile}: ${error._tag} ${error.error?.message ?? ''}`);
    return 1;
  }
  const result = await commands[cmd].parse(args, config, process.cwd());
  if (result instanceof Error) {
    console.error(result.message);
    return 1;
  }
  if (result) console.log(result);
  return 0;
}

main()
  .catch((e) => {
    console.error(`Error: ${e?.message ?? e}`);
    return 1;
  })
  .then((code) => process.exit(code));
