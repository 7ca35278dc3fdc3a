import { z } from 'zod';

// The kinds of setting the groups (./groups) and the apps' schemas
// (libs/app-config) are made of. Each carries its meaning, so the
// configuration reference and the error messages say the same.

export const port = (description: string) => z.coerce.number().int().min(0).max(65535).describe(description);

export const url = (description: string) => z.url().describe(description);

export const milliseconds = (fallback: number, description: string) =>
  z.coerce.number().int().positive().default(fallback).describe(description);

export const count = (fallback: number, description: string) =>
  z.coerce.number().int().min(0).default(fallback).describe(description);

export const optionalText = (description: string) => z.string().min(1).optional().describe(description);

export const commaList = (description: string) =>
  z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    )
    .describe(description);

export const databaseUrl = (description: string) =>
  z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'expected a postgresql:// URL')
    .describe(description);

// What a group's settings are once parsed: the type a library's function
// takes, so that its parameter and the variables cannot drift apart.
export type SettingsOf<Group extends z.ZodRawShape> = z.output<z.ZodObject<Group>>;
