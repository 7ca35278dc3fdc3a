// What `npm run test:images` (scripts/test-images.sh) built and hands to the
// tests through the environment: the two images and what their labels carry.
export interface BuiltImages {
  app: string;
  migrate: string;
  version: string;
  revision: string;
  source: string;
}

export function builtImages(): BuiltImages {
  const required = (name: string): string => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set: run this test through \`npm run test:images\``);
    return value;
  };
  return {
    app: required('FORMLINE_APP_IMAGE'),
    migrate: required('FORMLINE_MIGRATE_IMAGE'),
    version: required('FORMLINE_IMAGE_VERSION'),
    revision: required('FORMLINE_IMAGE_REVISION'),
    source: required('FORMLINE_IMAGE_SOURCE'),
  };
}
