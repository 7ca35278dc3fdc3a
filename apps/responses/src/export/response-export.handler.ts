import { Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { exportResponsesPage } from '@formline/contracts';
import { ByteRpcResponder } from '@formline/messaging';
import { ResponseExportService } from './response-export.service';

// Export pages are pulled by the gateway a bounded page at a time, each
// answered as the bytes of its JSON lines (a byte reply, libs/messaging), not
// through Nest's transport, which would write them as JSON strings: a page
// goes from PostgreSQL's text to the client's socket with no escaping and no
// parsing on the way. Started with the application; on shutdown it takes no
// more pages and answers those in work before the connection is drained.
@Injectable()
export class ResponseExportHandler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly responder: ByteRpcResponder,
    private readonly exports: ResponseExportService,
  ) {}

  onApplicationBootstrap(): void {
    this.responder.serve(exportResponsesPage, (request) => this.exports.page(request));
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.responder.stop();
  }
}
