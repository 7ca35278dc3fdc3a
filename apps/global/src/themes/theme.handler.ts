import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  createTheme,
  deleteTheme,
  getTheme,
  listThemes,
  patchTheme,
  replaceTheme,
  type RpcReply,
  type RpcRequest,
} from '@formline/contracts';
import { ContractPipe } from '@formline/messaging';
import { ThemeService } from './theme.service';

@Controller()
export class ThemeHandler {
  constructor(private readonly themes: ThemeService) {}

  @MessagePattern(createTheme.subject)
  create(@Payload(new ContractPipe(createTheme.request)) request: RpcRequest<typeof createTheme>) {
    return this.themes.create(request.accountId, request.body);
  }

  @MessagePattern(listThemes.subject)
  list(@Payload(new ContractPipe(listThemes.request)) request: RpcRequest<typeof listThemes>) {
    const { accountId, ...query } = request;
    return this.themes.list(accountId, query);
  }

  @MessagePattern(getTheme.subject)
  get(@Payload(new ContractPipe(getTheme.request)) request: RpcRequest<typeof getTheme>) {
    return this.themes.get(request.accountId, request.themeId);
  }

  @MessagePattern(replaceTheme.subject)
  replace(@Payload(new ContractPipe(replaceTheme.request)) request: RpcRequest<typeof replaceTheme>) {
    return this.themes.replace(request.accountId, request.themeId, request.body);
  }

  @MessagePattern(patchTheme.subject)
  patch(@Payload(new ContractPipe(patchTheme.request)) request: RpcRequest<typeof patchTheme>) {
    return this.themes.patch(request.accountId, request.themeId, request.body);
  }

  @MessagePattern(deleteTheme.subject)
  async delete(
    @Payload(new ContractPipe(deleteTheme.request)) request: RpcRequest<typeof deleteTheme>,
  ): Promise<RpcReply<typeof deleteTheme>> {
    await this.themes.delete(request.accountId, request.themeId);
    return { deleted: true };
  }
}
