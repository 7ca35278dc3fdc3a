import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  type DeliveryOutcome,
  recordDeliveryAttempt,
  recordDeliveryLatency,
  requestIdHeaders,
} from '@formline/ops';
import {
  type DeliveryJob,
  DeliveryRepository,
  DeliveryStatus,
  RetryDeliveryLater,
  SecretBox,
  SendFailureKind,
  type SendOutcome,
  standardWebhookSignature,
  typeformSignature,
  type UnrecordedAttempt,
} from '@formline/webhook-delivery';
import { OutboundUrlPolicy } from '@formline/outbound-url';
import { UnrecoverableError } from 'bullmq';
import { DISPATCHER_CONFIG, type DispatcherConfig } from '@formline/app-config';
import { RetryPolicy } from './retry.policy';
import { Slots } from '@formline/db';
import { sendWebhook } from './webhook.sender';

/** How a run of a delivery goes on, by the kind of job it is part of. */
export interface AttemptRun {
  // Send only if the delivery has had no attempt (a first-attempts job).
  firstOnly: boolean;
  // An outcome the database did not take: keep it where the next run finds it.
  keep: (ended: UnrecordedAttempt, error: unknown) => Promise<never>;
}

// One attempt of a delivery, for both of the dispatcher's queue workers: the
// delivery loaded and its attempt written, the signed POST, how it ended
// recorded, and the decision (done, again later, stop). The attempt is written
// before the POST so that a dispatcher killed mid-send leaves an `interrupted`
// attempt in the log: the receiver may have had it, and a takeover sends it
// again (at least once). An attempt that ended is never sent again because its
// outcome could not be written: `keep` puts the outcome aside until the
// database takes it.
//
// A run throws RetryDeliveryLater to be tried again after its wait, and
// UnrecoverableError to stop; it returns when the delivery is done (or gone).
@Injectable()
export class DeliveryAttempts {
  private readonly logger = new Logger('DeliveryAttempts');
  private readonly retries: RetryPolicy;
  // DISPATCHER_CONCURRENCY attempts at once in this process, from whichever
  // job: each holds its slot from the attempt's row to the receiver's answer,
  // so an attempt is never written long before it is sent.
  private readonly sends: Slots;
  // The run of each delivery under way in this process.
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly secrets: SecretBox,
    private readonly urls: OutboundUrlPolicy,
    @Inject(DISPATCHER_CONFIG) private readonly config: DispatcherConfig,
  ) {
    this.retries = new RetryPolicy(config);
    this.sends = new Slots(config.DISPATCHER_CONCURRENCY);
  }

  // One run. A run that finds an earlier run of the same delivery still going
  // in this process (a job's lock lapsed while the event loop stalled, and
  // BullMQ handed it out again; or the delivery is in two jobs) waits for it
  // and then looks again, rather than sending beside it.
  async run(job: DeliveryJob, run: AttemptRun): Promise<void> {
    const earlier = this.running.get(job.deliveryId);
    const current = (async () => {
      if (earlier) await earlier.catch(() => undefined);
      await this.runOnce(job, run);
    })();
    this.running.set(job.deliveryId, current);
    try {
      await current;
    } finally {
      if (this.running.get(job.deliveryId) === current) this.running.delete(job.deliveryId);
    }
  }

  private async runOnce(job: DeliveryJob, run: AttemptRun): Promise<void> {
    // An earlier run sent, and the database could not take the outcome: record
    // it now (this throws while the database is still away: the job runs
    // again later), and never send again for it.
    if (job.unrecorded) {
      if (await this.record(job.deliveryId, job.unrecorded)) {
        this.logger.log(
          `recorded attempt ${job.unrecorded.attemptNumber} of delivery ${job.deliveryId}, kept in the queue while the database was away`,
        );
        return conclude(job.unrecorded);
      }
      // That run's record had committed after all: carry on as usual.
    }
    const sent = await this.sends.run(() => this.send(job, run.firstOnly));
    if (!sent) return;
    const { ended, eventId, createdAt } = sent;
    // Every attempt is in the delivery log and the metrics: a line for each
    // delivered one only at debug, for each failed one always.
    const what = `attempt ${ended.attemptNumber} of event ${eventId} to webhook ${ended.webhookId}`;
    const { outcome } = ended;
    if (outcome.ok) this.logger.debug(`${what} delivered (${outcome.statusCode})`);
    else this.logger.log(`${what} failed (${outcome.kind}): ${outcome.message}; ${ended.decision.kind}`);
    try {
      await this.record(job.deliveryId, ended);
    } catch (error) {
      await run.keep(ended, error);
    }
    if (ended.decision.kind === 'succeeded') recordDeliveryLatency((Date.now() - createdAt.getTime()) / 1000);
    conclude(ended);
  }

  // The attempt begun and sent, within a send slot: how it ended, or nothing
  // when there is nothing to send.
  private async send(
    job: DeliveryJob,
    firstOnly: boolean,
  ): Promise<{ ended: UnrecordedAttempt; eventId: string; createdAt: Date } | undefined> {
    const once = job.once === true;
    // In flight for the send's timeout plus a lock's length (time to record).
    const started = await this.deliveries.startAttempt(job.deliveryId, {
      once,
      inFlightMs: this.config.WEBHOOK_TIMEOUT_MS + this.config.DISPATCHER_LOCK_MS,
      firstOnly,
    });
    // Gone with its webhook.
    if (!started) return undefined;
    const { delivery, attempt } = started;
    const { webhook } = delivery;
    if (!attempt) {
      if (delivery.status !== DeliveryStatus.pending) return undefined;
      // Its webhook was disabled meanwhile: nothing is sent.
      if (!webhook.enabled) {
        await this.deliveries.abandon(delivery.id);
        return undefined;
      }
      // A first-attempts job's run that found the first attempt made. When
      // the row showed none as the statement began, a run that started just
      // then made it, and goes on with it; otherwise the delivery goes on in
      // its own job, due when its next attempt is, and never before the
      // attempt still in flight has had its time.
      if (firstOnly && delivery.attemptCount > 0) {
        const due = Math.max(delivery.nextAttemptAt?.getTime() ?? 0, delivery.inFlightUntil?.getTime() ?? 0);
        throw new RetryDeliveryLater('attempted already', Math.max(0, due - Date.now()));
      }
      return undefined;
    }
    let secret: string | null;
    try {
      secret = webhook.secretSealed === null ? null : this.secrets.open(webhook.secretSealed);
    } catch (error) {
      // Unsigned it must not go (a key missing from WEBHOOK_SECRET_KEYS): the
      // attempt never happened, and the job runs again later.
      await this.deliveries.cancelAttempt(delivery.id, attempt);
      throw error;
    }
    const outcome = await sendWebhook(
      {
        url: webhook.url,
        verifySsl: webhook.verifySsl,
        body: delivery.body,
        headers: this.headers(delivery.eventId, delivery.body, secret),
        timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
      },
      this.urls,
    );
    recordDeliveryAttempt(outcomeOf(outcome), outcome.durationMs / 1000);
    const ended: UnrecordedAttempt = {
      ...attempt,
      webhookId: webhook.id,
      outcome,
      decision: this.retries.decide(outcome, attempt.attemptNumber, once),
      endedAt: Date.now(),
    };
    return { ended, eventId: delivery.eventId, createdAt: delivery.createdAt };
  }

  // Writes how an attempt ended and the delivery's next state. False when it
  // was written already.
  private record(deliveryId: string, ended: UnrecordedAttempt): Promise<boolean> {
    const { decision, outcome } = ended;
    switch (decision.kind) {
      case 'succeeded':
        return this.deliveries.succeed(deliveryId, ended, outcome);
      case 'retry':
        return this.deliveries.retryLater(
          deliveryId,
          ended,
          outcome,
          new Date(ended.endedAt + decision.delayMs),
        );
      case 'give-up':
        return this.deliveries.giveUp(
          deliveryId,
          ended,
          outcome,
          decision.disableReason === null
            ? null
            : { webhookId: ended.webhookId, reason: decision.disableReason },
        );
    }
  }

  // Typeform's signature and Standard Webhooks' headers; `webhook-id` is the
  // event id, the same on every attempt, for receivers to de-duplicate.
  private headers(eventId: string, body: string, secret: string | null): Record<string, string> {
    const timestamp = Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = {
      ...requestIdHeaders(),
      'content-type': 'application/json',
      'user-agent': 'Formline-Webhooks/1.0',
      'webhook-id': eventId,
      'webhook-timestamp': String(timestamp),
    };
    if (secret !== null) {
      headers['typeform-signature'] = typeformSignature(secret, body);
      headers['webhook-signature'] = standardWebhookSignature(secret, eventId, timestamp, body);
    }
    return headers;
  }
}

function failureMessage(outcome: SendOutcome): string {
  return outcome.ok ? 'succeeded' : outcome.message;
}

// Ends a run as its attempt's decision says: done, again later (the wait
// counted from when the attempt ended), or stop for good.
function conclude(ended: UnrecordedAttempt): void {
  const { decision, outcome } = ended;
  switch (decision.kind) {
    case 'succeeded':
      return;
    case 'retry':
      throw new RetryDeliveryLater(
        failureMessage(outcome),
        Math.max(0, ended.endedAt + decision.delayMs - Date.now()),
      );
    case 'give-up':
      throw new UnrecoverableError(failureMessage(outcome));
  }
}

function outcomeOf(outcome: SendOutcome): DeliveryOutcome {
  if (outcome.ok) return 'delivered';
  switch (outcome.kind) {
    case SendFailureKind.http_status:
      return 'http_error';
    case SendFailureKind.timeout:
      return 'timeout';
    case SendFailureKind.connection_refused:
    case SendFailureKind.connection_reset:
    case SendFailureKind.dns:
    case SendFailureKind.tls:
    case SendFailureKind.address_refused:
    case SendFailureKind.network:
    case SendFailureKind.interrupted:
      return 'network_error';
  }
}
