import { z } from 'zod';
import type { SettingsOf } from '../setting.builders';

// The media app's two stores; libs/object-storage opens the store they name
// (objectStoreFrom takes StorageSettings).

// The variables that choose and configure one store, under a prefix
// (`IMAGE`, `FILE`): `<P>_STORAGE` is `local` (the default: files under
// `<P>_STORAGE_DIR`) or `s3` (an S3-compatible bucket: `<P>_S3_*`).
function storageVars<P extends string>(prefix: P, what: string, defaultDir: string) {
  const text = (description: string) => z.string().min(1).optional().describe(description);
  return {
    [`${prefix}_STORAGE`]: z
      .enum(['local', 's3'])
      .default('local')
      .describe(`Where ${what} are stored: \`local\` (a directory) or \`s3\` (an S3-compatible bucket).`),
    [`${prefix}_STORAGE_DIR`]: z
      .string()
      .min(1)
      .default(defaultDir)
      .describe(`Directory of ${what} when \`${prefix}_STORAGE\` is \`local\`.`),
    [`${prefix}_S3_ENDPOINT`]: z
      .url()
      .optional()
      .describe(
        `S3-compatible endpoint of ${what} (\`${prefix}_STORAGE=s3\`), e.g. https://s3.eu-central-1.amazonaws.com.`,
      ),
    [`${prefix}_S3_BUCKET`]: text(`Bucket of ${what} (\`${prefix}_STORAGE=s3\`).`),
    [`${prefix}_S3_REGION`]: z
      .string()
      .min(1)
      .default('us-east-1')
      .describe(`Signing region of the ${what} bucket.`),
    [`${prefix}_S3_ACCESS_KEY_ID`]: text(`Access key id for the ${what} bucket; from a Secret.`),
    [`${prefix}_S3_SECRET_ACCESS_KEY`]: text(`Secret access key for the ${what} bucket; from a Secret.`),
    [`${prefix}_S3_PREFIX`]: text(`Key prefix inside the ${what} bucket (optional).`),
  } as Record<`${P}_STORAGE`, z.ZodDefault<z.ZodEnum<{ local: 'local'; s3: 's3' }>>> &
    Record<`${P}_STORAGE_DIR` | `${P}_S3_REGION`, z.ZodDefault<z.ZodString>> &
    Record<
      | `${P}_S3_ENDPOINT`
      | `${P}_S3_BUCKET`
      | `${P}_S3_ACCESS_KEY_ID`
      | `${P}_S3_SECRET_ACCESS_KEY`
      | `${P}_S3_PREFIX`,
      z.ZodOptional<z.ZodString>
    >;
}

// Images are form material, read by both regions' pages: one store for both.
export const imageStorageVars = storageVars('IMAGE', 'uploaded images', '.data/storage/images');
// Respondents' files are responses data: each region its own store (EU files stay in the EU).
export const fileStorageVars = storageVars('FILE', "respondents' uploaded files", '.data/storage/files');

// What one store's settings are once parsed: objectStoreFrom's parameter.
export type StorageSettings<P extends string> = SettingsOf<ReturnType<typeof storageVars<P>>>;
