import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  configurationReference,
  configurationReferencePath,
  repositoryRoot,
} from './configuration-reference';

// `npm run docs:config`: rewrites docs/configuration.md from the schemas.
writeFileSync(path.join(repositoryRoot, configurationReferencePath), configurationReference());
console.log(`wrote ${configurationReferencePath}`);
