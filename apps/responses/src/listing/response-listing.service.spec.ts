import type { ResponseQuery } from '@formline/contracts';
import { inputLimits } from '@formline/input';
import type { RpcClient } from '@formline/messaging';
import type { ResponsesConfig } from '@formline/app-config';
import type { ResponseRepository } from '../response.repository';
import { ResponseListingService } from './response-listing.service';

// A listing page fits one NATS message: cut at inputLimits.pageBytes from
// where it was read, its start, or its end when it was read upwards from an
// `after` cursor and shown newest first (the rows nearest the cursor stay).
describe('ResponseListingService.list', () => {
  const third = Math.floor(inputLimits.pageBytes / 3);
  const at = new Date('2026-01-01T00:00:00Z');
  const rows = ['r4', 'r3', 'r2', 'r1'].map((id) => ({
    id,
    responseType: 'completed',
    landedAt: at,
    submittedAt: at,
    payload: { token: id, answers: [{ text: 'x'.repeat(third) }] },
  }));
  const service = new ResponseListingService(
    { request: () => Promise.resolve({ accountId: 'account', region: 'us' }) } as unknown as RpcClient,
    { list: () => Promise.resolve({ total: 4, rows }) } as unknown as ResponseRepository,
    { REGION: 'us', DATABASE_POOL_SIZE: 10, DATABASE_POOL_TIMEOUT_MS: 2000 } as ResponsesConfig,
  );
  const tokens = async (cursor: Partial<ResponseQuery>) => {
    const query: ResponseQuery = { sort: { field: 'submitted_at', order: 'desc' }, pageSize: 4, ...cursor };
    const page = await service.list('account', 'form', query);
    return page.items.map((item) => item.token);
  };

  it('keeps the first responses that fit, newest first', async () => {
    expect(await tokens({})).toEqual(['r4', 'r3']);
    expect(await tokens({ before: 'r5' })).toEqual(['r4', 'r3']);
  });

  it('keeps those nearest an `after` cursor, still shown newest first', async () => {
    expect(await tokens({ after: 'r0' })).toEqual(['r2', 'r1']);
  });
});
