import { Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { saveProgresses, submitResponses } from '@formline/contracts';
import { BatchRpcResponder } from '@formline/messaging';
import { ProgressService } from './progress.service';
import { SubmissionService } from './submission.service';

// The submissions and progress saves a gateway sends together
// (`submitResponses`, `saveProgresses`): each is taken exactly as one sent
// alone (`submitResponse`, `saveProgress`), with its form's snapshot from the
// batch; they run at once, so their writes meet in the same statements. Started with the application; on shutdown it takes no
// more batches and answers those in work before the connection is drained.
@Injectable()
export class SubmissionBatchHandler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly responder: BatchRpcResponder,
    private readonly submissions: SubmissionService,
    private readonly progress: ProgressService,
  ) {}

  onApplicationBootstrap(): void {
    this.responder.serve(submitResponses, (call, form) => this.submissions.submit({ ...call, form }));
    this.responder.serve(saveProgresses, (call, form) => this.progress.save({ ...call, form }));
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.responder.stop();
  }
}
