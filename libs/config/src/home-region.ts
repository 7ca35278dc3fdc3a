import type { Region } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { regionBaseUrls } from './region-base-urls';

interface RegionSettings {
  REGION: Region;
  BASE_URL: string;
  EU_BASE_URL: string;
}

// The one rule for what lives in one region (an account's responses, its
// uploads, webhooks, deliveries and erasure jobs): it is reached only on the
// base address of that region, its home. Another region refuses the call with
// 421 WRONG_REGION and names the address that serves it, so a client can follow.
// Every app decides it here.

/** Undefined when `home` is this region; else `path` on the home region's base address. */
export function homeRegionUrl(config: RegionSettings, home: Region, path = ''): string | undefined {
  return home === config.REGION ? undefined : `${regionBaseUrls(config)[home]}${path}`;
}

/** 421 WRONG_REGION unless `home` is this region; `what` names the data, `path` where it is served. */
export function requireHomeRegion(config: RegionSettings, home: Region, what: string, path = ''): void {
  const url = homeRegionUrl(config, home, path);
  if (url) throw new DomainError(ErrorCode.WrongRegion, `${what} live in the ${home} region: call ${url}.`);
}
