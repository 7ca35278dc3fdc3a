import { readFileSync } from 'node:fs';
import path from 'node:path';
import { configurationReference, configurationReferencePath } from './configuration-reference';

describe('docs/configuration.md', () => {
  const written = readFileSync(path.resolve(__dirname, '../..', configurationReferencePath), 'utf8');

  it('is what the configuration schemas say (else run `npm run docs:config`)', () => {
    expect(written).toBe(configurationReference());
  });

  it('names every variable with its default and meaning', () => {
    const row = (...cells: string[]) => new RegExp(`^\\| ${cells.join(' *\\| ')} *\\|$`, 'm');
    expect(written).toMatch(
      row(
        '`NATS_REQUEST_TIMEOUT_MS`',
        'gateway, global, responses, webhooks, media',
        '`5000`',
        'How long .+',
      ),
    );
    expect(written).toMatch(
      row('`HTTP_PORT`', 'gateway, media', '\\(required\\)', 'gateway: Port of the public HTTP API\\..+'),
    );
    expect(written).toMatch(
      row('`LOG_LEVEL`', 'all', '`log`', '.+ One of `error`, `warn`, `log`, `debug`, `verbose`\\.'),
    );
  });
});
