import { regionSchema } from '@formline/contracts';
import { type SettingsOf, url } from '../setting.builders';

// Every app: the region it serves and both regions' public addresses.
export const regionVars = {
  REGION: regionSchema.describe('Region this stack serves: `us` (the default region) or `eu`.'),
  BASE_URL: url('Public base address of the default region ({base_url}), e.g. https://api.example.com.'),
  EU_BASE_URL: url('Public base address of the EU region ({eu_base_url}), e.g. https://api.eu.example.com.'),
};

export type RegionGroupSettings = SettingsOf<typeof regionVars>;
