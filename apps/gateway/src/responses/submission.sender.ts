import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  type BatchRpcItem,
  type BatchRpcShared,
  type FormSnapshot,
  type RpcReply,
  saveProgress,
  saveProgresses,
  submitResponse,
  submitResponses,
} from '@formline/contracts';
import { BatchRpcClient, NATS_CONNECTION, RpcClient } from '@formline/messaging';
import { GATEWAY_CONFIG, type GatewayConfig } from '@formline/app-config';

// Batches in flight at once from one gateway. Two: a submission that finds a
// lane free goes at once, and a busy gateway sends one message for each round
// trip's worth of submissions (group commit over NATS).
const submissionLanes = 2;

// Submissions and progress saves on their way to the responses service:
// those that arrive together go in one message (`submitResponses`,
// `saveProgresses`), each answered as if sent alone; a large one, or all of
// them while no responses service takes batches (a rolling update), go alone
// (`submitResponse`, `saveProgress`).
@Injectable()
export class SubmissionSender {
  private readonly submissions: BatchRpcClient<typeof submitResponses>;
  private readonly saves: BatchRpcClient<typeof saveProgresses>;
  // What the service is handed of each cached form snapshot: the same object
  // for every submission to it, so that it goes once per message.
  private readonly handedOn = new WeakMap<FormSnapshot, BatchRpcShared<typeof submitResponses>>();

  constructor(
    @Inject(NATS_CONNECTION) nats: NatsConnection,
    rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    const timeoutMs = config.NATS_REQUEST_TIMEOUT_MS;
    this.submissions = new BatchRpcClient(nats, submitResponses, timeoutMs, {
      lanes: submissionLanes,
      alone: (call, form, requestId) => rpc.request(submitResponse, { ...call, form }, requestId),
    });
    this.saves = new BatchRpcClient(nats, saveProgresses, timeoutMs, {
      lanes: submissionLanes,
      alone: (call, form, requestId) => rpc.request(saveProgress, { ...call, form }, requestId),
    });
  }

  submit(
    call: BatchRpcItem<typeof submitResponses>,
    form: FormSnapshot,
    requestId: string,
  ): Promise<RpcReply<typeof submitResponse>> {
    return this.submissions.call(call, this.handedOnOf(form), requestId);
  }

  saveProgress(
    call: BatchRpcItem<typeof saveProgresses>,
    form: FormSnapshot,
    requestId: string,
  ): Promise<RpcReply<typeof saveProgress>> {
    return this.saves.call(call, this.handedOnOf(form), requestId);
  }

  private handedOnOf(form: FormSnapshot): BatchRpcShared<typeof submitResponses> {
    let handed = this.handedOn.get(form);
    if (!handed) {
      handed = { accountId: form.accountId, region: form.region, definition: form.definition };
      this.handedOn.set(form, handed);
    }
    return handed;
  }
}
