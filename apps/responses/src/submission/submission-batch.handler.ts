import { Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { submitResponses } from '@formline/contracts';
import { BatchRpcResponder } from '@formline/messaging';
import { SubmissionService } from './submission.service';

// The submissions a gateway sends together (`submitResponses`): each is
// accepted exactly as one sent alone (`submitResponse`), with its form's
// snapshot taken from the batch; they run at once, so their writes meet in
// the same statements. Started with the application; on shutdown it takes no
// more batches and answers those in work before the connection is drained.
@Injectable()
export class SubmissionBatchHandler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly responder: BatchRpcResponder,
    private readonly submissions: SubmissionService,
  ) {}

  onApplicationBootstrap(): void {
    this.responder.serve(submitResponses, (call, form) => this.submissions.submit({ ...call, form }));
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.responder.stop();
  }
}
