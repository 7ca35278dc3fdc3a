import { fitsNodeLine } from '@formline/testing';
import { builtImages } from './built-images';
import { ContainerEngine } from './container-engine';

// What the built images hold and declare, read from the images themselves:
// the Node.js they run, the user they run as, their OCI labels, and none of what the apps never run
// (build tools, the Prisma CLI, other databases' query compilers, the
// dependencies' source maps, apt's lists and caches).
describe('the built images', () => {
  const engine = ContainerEngine.fromEnvironment();
  const built = builtImages();
  const images = { app: built.app, migrate: built.migrate };

  // A shell in the image, as its own user, that prints what it finds.
  const inImage = (image: string, script: string) =>
    engine.exec(['run', '--rm', '--network', 'host', '--entrypoint', '/bin/sh', image, '-c', script]);

  it.each(Object.entries(images))('%s runs as uid 1000 and carries the OCI labels', async (_, image) => {
    const config = await engine.inspectImage(image);
    expect(config.User).toBe('1000:1000');
    expect(config.Labels).toMatchObject({
      'org.opencontainers.image.version': built.version,
      'org.opencontainers.image.revision': built.revision,
      'org.opencontainers.image.source': built.source,
      'org.opencontainers.image.licenses': 'Apache-2.0',
    });
    expect(await inImage(image, 'id -u; id -g')).toBe('1000\n1000');
  });

  it.each(Object.entries(images))("%s runs Node.js of the product's line", async (_, image) => {
    const version = await inImage(image, 'node --version');
    expect({ version, fits: fitsNodeLine(version) }).toEqual({ version, fits: true });
  });

  it('app holds no build tools, Prisma CLI, foreign query compilers, dependency source maps or apt caches', async () => {
    const found = await inImage(
      images.app,
      [
        // Executables a build would need.
        'for tool in gcc cc make python3 g++ git; do command -v $tool; done',
        // The Prisma CLI and its engines, TypeScript, the build and test tools.
        'for dir in prisma @prisma/engines @prisma/migrate typescript @swc/core nx jest eslint; do [ -e node_modules/$dir ] && echo node_modules/$dir; done',
        'ls node_modules/@prisma/client/runtime | grep query_compiler | grep -v "^query_compiler_small_bg\\.postgresql\\."',
        'find node_modules -name "*.map" -o -name "*.d.ts" | head -5',
        'ls /var/lib/apt/lists | grep -v -x -e lock -e partial -e auxfiles',
        'ls /var/cache/apt | grep "\\.bin$"',
        'true',
      ].join('; '),
    );
    expect(found).toBe('');
  });

  it("app keeps what the apps load: the PostgreSQL query compiler, their own source maps, the respondent page's bundle, the console, tini", async () => {
    const found = await inImage(
      images.app,
      [
        'ls node_modules/@prisma/client/runtime/query_compiler_small_bg.postgresql.js',
        'ls node_modules/@prisma/client/runtime/query_compiler_small_bg.postgresql.wasm-base64.js',
        'ls dist/apps/gateway/main.js.map',
        // The respondent page's script and icon, as the gateway finds them (apps/respondent-web's build).
        'ls dist/apps/respondent-web/assets.json',
        'ls dist/libs/respondent-page/src/texts/en.json',
        // The console's page and files (apps/console's build).
        'ls dist/apps/console/index.html',
        '/usr/bin/tini --version',
      ].join(' && '),
    );
    expect(found).toMatch(
      /query_compiler_small_bg\.postgresql\.js\n.*query_compiler_small_bg\.postgresql\.wasm-base64\.js\n.*main\.js\.map\n.*assets\.json\n.*en\.json\n.*index\.html\ntini version/,
    );
  });

  it('migrate holds the migration tooling without the build and test tools', async () => {
    const found = await inImage(
      images.migrate,
      'for dir in @prisma/migrate @prisma/adapter-pg prisma typescript @swc/core nx jest eslint @nestjs/core; do [ -e node_modules/$dir ] && echo $dir; done; true',
    );
    expect(found.split('\n')).toEqual(['@prisma/migrate', '@prisma/adapter-pg', 'prisma']);
  });
});
