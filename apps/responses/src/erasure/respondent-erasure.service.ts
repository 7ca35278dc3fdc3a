import { currentRequestId } from '@formline/ops';
import { Injectable } from '@nestjs/common';
import { forgetDeliveries } from '@formline/contracts';
import { RpcClient } from '@formline/messaging';
import { ErasureRepository } from './erasure.repository';
import { holdsRespondentEmail } from './respondent-match';

const tokensPerCall = 1000;

// Right to be forgotten: deletes the account's responses in this region that
// hold one of the addresses, the outbox events carrying them, and (through the
// webhooks service, which owns them) the stored bodies of their deliveries.
// Deliveries go first: if anything fails, the responses are still there to
// be found by the retried request, so nothing is left behind unfound.
@Injectable()
export class RespondentErasureService {
  constructor(
    private readonly rpc: RpcClient,
    private readonly erasure: ErasureRepository,
  ) {}

  async erase(accountId: string, emails: readonly string[]): Promise<number> {
    const lowered = [...new Set(emails.map((email) => email.trim().toLowerCase()))];
    const ids = new Set<string>();
    for (const email of lowered) {
      for await (const rows of this.erasure.mentioning(accountId, email)) {
        for (const row of rows) if (holdsRespondentEmail(row.payload, lowered)) ids.add(row.id);
      }
    }
    const all = [...ids];
    let deleted = 0;
    for (let start = 0; start < all.length; start += tokensPerCall) {
      const batch = all.slice(start, start + tokensPerCall);
      await this.rpc.request(forgetDeliveries, { accountId, responseTokens: batch }, currentRequestId());
      deleted += await this.erasure.deleteWithEvents(accountId, batch);
    }
    return deleted;
  }
}
