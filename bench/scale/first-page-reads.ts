import { type Sample, timedRequest } from './scale-http';

// The region's reads around a background job: a form's first page (the
// listing's default call), read one call after another while `going()` says
// so. The quiet side of a "reads during" figure is read the same way, for
// `quietReadsMs` just before the job starts: a p99 of thousands of reads set
// against a p99 of the stage's 15 samples (their largest) would compare a
// tail with a maximum, and the maximum of 15 is usually below the tail.
export const quietReadsMs = 15_000;

export async function firstPageReads(
  baseUrl: string,
  form: { formId: string; token: string },
  going: () => boolean,
): Promise<Sample[]> {
  const reads: Sample[] = [];
  const path = `/forms/${form.formId}/responses?page_size=25`;
  while (going()) reads.push(await timedRequest(baseUrl, form.token, 'GET', path));
  return reads;
}

// The same reads for `quietReadsMs`, with nothing else asked of the region.
export function quietFirstPageReads(
  baseUrl: string,
  form: { formId: string; token: string },
): Promise<Sample[]> {
  const until = performance.now() + quietReadsMs;
  return firstPageReads(baseUrl, form, () => performance.now() < until);
}
