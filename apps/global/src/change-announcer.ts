import { Logger } from '@nestjs/common';
import {
  type ChangeAnnouncement,
  formChanged,
  tokensRevoked,
  workspaceAccessRevoked,
} from '@formline/contracts';
import type { NatsConnection } from '@nats-io/transport-node';
import type { z } from 'zod';

// Tells this region's gateways, on NATS, what their caches must drop: a token
// revoked, a form changed, a member removed from a shared workspace. Called
// after the change is committed and before its reply is sent; the flush makes
// the server route the announcement before the reply (sent on another
// connection) can overtake it. Never fails the
// change: if NATS is away, the gateways drop their caches themselves (they see
// the outage) and entries end with their lifetime anyway.
export class ChangeAnnouncer {
  private readonly logger = new Logger('ChangeAnnouncer');

  constructor(
    private readonly nats: NatsConnection,
    private readonly flushTimeoutMs = 1000,
  ) {}

  tokensRevoked(accountId: string): Promise<void> {
    return this.announce(tokensRevoked, { accountId });
  }

  formChanged(formId: string): Promise<void> {
    return this.announce(formChanged, { formId });
  }

  workspaceAccessRevoked(accountId: string): Promise<void> {
    return this.announce(workspaceAccessRevoked, { accountId });
  }

  async close(): Promise<void> {
    if (!this.nats.isClosed()) await this.nats.close();
  }

  private async announce<S extends z.ZodType>(
    what: ChangeAnnouncement<S>,
    payload: z.input<S>,
  ): Promise<void> {
    try {
      this.nats.publish(what.subject, JSON.stringify(payload));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.nats.flush(),
        new Promise((resolve) => (timer = setTimeout(resolve, this.flushTimeoutMs))),
      ]).finally(() => clearTimeout(timer));
    } catch (error) {
      this.logger.warn(`announcing ${what.subject} failed: ${String(error)}`);
    }
  }
}
