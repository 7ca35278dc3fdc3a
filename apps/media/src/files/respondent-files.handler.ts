import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { deleteRespondentFiles, type RpcReply, type RpcRequest } from '@formline/contracts';
import { ContractPipe } from '@formline/messaging';
import type { ObjectStore } from '@formline/object-storage';
import { MEDIA_CONFIG, type MediaConfig } from '@formline/app-config';
import { FILE_STORE, storedFileKey } from './file.store';

// The responses service's deletes of respondents' bytes (pruned uploads, a
// purged form's, a deleted response's, a right-to-be-forgotten job's): it
// deletes the records, this app the bytes, in the same batch. Files already
// gone are no error, so a batch retried after a failure asks again safely.
@Controller()
export class RespondentFilesHandler {
  constructor(
    @Inject(FILE_STORE) private readonly store: ObjectStore,
    @Inject(MEDIA_CONFIG) private readonly config: MediaConfig,
  ) {}

  @MessagePattern(deleteRespondentFiles.subject)
  async delete(
    @Payload(new ContractPipe(deleteRespondentFiles.request))
    request: RpcRequest<typeof deleteRespondentFiles>,
  ): Promise<RpcReply<typeof deleteRespondentFiles>> {
    await this.store.delete(request.files.map((file) => storedFileKey(this.config.REGION, file)));
    return { deleted: request.files.length };
  }
}
