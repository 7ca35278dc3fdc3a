import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  createWorkspace,
  deleteWorkspace,
  getWorkspace,
  listWorkspaces,
  patchWorkspace,
  type RpcReply,
  type RpcRequest,
} from '@formline/contracts';
import { ContractPipe } from '@formline/messaging';
import { WorkspaceService } from './workspace.service';

@Controller()
export class WorkspaceHandler {
  constructor(private readonly workspaces: WorkspaceService) {}

  @MessagePattern(createWorkspace.subject)
  create(@Payload(new ContractPipe(createWorkspace.request)) request: RpcRequest<typeof createWorkspace>) {
    return this.workspaces.create(request.accountId, request.body);
  }

  @MessagePattern(listWorkspaces.subject)
  list(@Payload(new ContractPipe(listWorkspaces.request)) request: RpcRequest<typeof listWorkspaces>) {
    const { accountId, ...query } = request;
    return this.workspaces.list(accountId, query);
  }

  @MessagePattern(getWorkspace.subject)
  get(@Payload(new ContractPipe(getWorkspace.request)) request: RpcRequest<typeof getWorkspace>) {
    return this.workspaces.get(request.accountId, request.workspaceId);
  }

  @MessagePattern(patchWorkspace.subject)
  async patch(
    @Payload(new ContractPipe(patchWorkspace.request)) request: RpcRequest<typeof patchWorkspace>,
  ): Promise<RpcReply<typeof patchWorkspace>> {
    await this.workspaces.patch(request.accountId, request.workspaceId, request.operations);
    return { patched: true };
  }

  @MessagePattern(deleteWorkspace.subject)
  async delete(
    @Payload(new ContractPipe(deleteWorkspace.request)) request: RpcRequest<typeof deleteWorkspace>,
  ): Promise<RpcReply<typeof deleteWorkspace>> {
    await this.workspaces.delete(request.accountId, request.workspaceId);
    return { deleted: true };
  }
}
