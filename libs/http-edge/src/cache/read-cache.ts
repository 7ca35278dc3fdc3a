import { Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import {
  type AccessTokenPrincipal,
  formChanged,
  type FormSnapshot,
  tokensRevoked,
  workspaceAccessRevoked,
} from '@formline/contracts';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { HttpEdgeConfig } from '../http-edge.config';
import { jsonBytes } from '@formline/input';
import { TtlCache } from './ttl-cache';

export type CachedPrincipal = AccessTokenPrincipal;

// What a parsed definition takes in V8's heap against its JSON, about.
const snapshotHeapFactor = 4;
/** A form as `accountId` read it: its ETag, and its JSON as bytes. */
export interface CachedForm {
  accountId: string;
  formId: string;
  version: number;
  etag: string;
  body: Buffer;
}

// What the gateway keeps so that reads mostly never leave it: token checks (by
// the token's hash), form reads (by account and form) and
// the snapshots submissions are checked against. Entries are dropped when the
// global service announces a revocation or a form change on this region's NATS
// (announced before the change's reply is sent, so the next request here sees
// it), and in any case after READ_CACHE_TTL_MS: the other region's changes are
// never announced here, that lifetime is their bound. While NATS is away an
// announcement may be missed, so everything is dropped when it drops and when it comes back.
export class ReadCache implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ReadCache');
  readonly principals: TtlCache<CachedPrincipal>;
  /**
   * By `<accountId>/<formId>`: a form is cached for the account that read it
   * (its owner, or a member of the workspace shared with it), never answered
   * to another; as its JSON.
   */
  readonly forms: TtlCache<CachedForm>;
  readonly snapshots: TtlCache<FormSnapshot>;
  private subscriptions: Subscription[] = [];

  constructor(
    private readonly nats: NatsConnection,
    config: Pick<HttpEdgeConfig, 'READ_CACHE_TTL_MS' | 'READ_CACHE_MAX_ENTRIES' | 'READ_CACHE_MAX_BYTES'>,
  ) {
    const ttl = config.READ_CACHE_TTL_MS;
    const maxEntries = config.READ_CACHE_MAX_ENTRIES;
    const maxBytes = config.READ_CACHE_MAX_BYTES;
    this.principals = new TtlCache(ttl, maxEntries);
    // A form is up to 384 KiB of JSON: the form caches are bounded in bytes
    // too. A form read is kept as its JSON's bytes; a snapshot as the parsed
    // definition, weighed at snapshotHeapFactor times its JSON (measured
    // once, when it is loaded), so each cache holds about maxBytes.
    this.forms = new TtlCache(ttl, { maxEntries, maxBytes, weigh: (form) => form.body.length });
    this.snapshots = new TtlCache(ttl, {
      maxEntries,
      maxBytes,
      weigh: (form) => snapshotHeapFactor * jsonBytes(form.definition),
    });
  }

  onModuleInit(): void {
    this.subscriptions = [
      this.nats.subscribe(tokensRevoked.subject, {
        callback: (error, message) => {
          const parsed = error ? undefined : tokensRevoked.payload.safeParse(message.json());
          if (!parsed?.success) return this.clear();
          this.principals.deleteWhere((principal) => principal.accountId === parsed.data.accountId);
        },
      }),
      this.nats.subscribe(formChanged.subject, {
        callback: (error, message) => {
          const parsed = error ? undefined : formChanged.payload.safeParse(message.json());
          if (!parsed?.success) return this.clear();
          this.forms.deleteWhere((cached) => cached.formId === parsed.data.formId);
          this.snapshots.delete(parsed.data.formId);
        },
      }),
      // A member removed from a shared workspace: what it read there must not
      // be answered to it again. Its own forms go too (which ones were shared
      // is not known here); they are read again on the next request.
      this.nats.subscribe(workspaceAccessRevoked.subject, {
        callback: (error, message) => {
          const parsed = error ? undefined : workspaceAccessRevoked.payload.safeParse(message.json());
          if (!parsed?.success) return this.clear();
          this.forms.deleteWhere((cached) => cached.accountId === parsed.data.accountId);
        },
      }),
    ];
    void this.followConnection();
  }

  onApplicationShutdown(): void {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
  }

  clear(): void {
    this.principals.clear();
    this.forms.clear();
    this.snapshots.clear();
  }

  private async followConnection(): Promise<void> {
    for await (const status of this.nats.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnect') {
        this.logger.warn(`NATS ${status.type}: cached token checks and form reads dropped`);
        this.clear();
      }
    }
  }
}
