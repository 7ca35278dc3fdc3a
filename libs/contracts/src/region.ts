import { z } from 'zod';

// The regions a stack can serve. `us` is the default region ({base_url}); `eu`
// keeps responses data on EU infrastructure ({eu_base_url}).
export const regions = ['us', 'eu'] as const;
export const regionSchema = z.enum(regions);
export type Region = z.infer<typeof regionSchema>;
export const defaultRegion: Region = 'us';

// Public base addresses of every region, as clients reach them.
export type RegionBaseUrls = Record<Region, string>;
