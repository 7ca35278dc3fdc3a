import { Injectable } from '@nestjs/common';
import { GlobalPrismaClient } from '@formline/db';
import type { Region } from '@formline/contracts';

export interface StoredForm {
  id: string;
  title: string;
  workspaceId: string;
  definition: unknown;
  accountRegion: Region;
}

@Injectable()
export class FormRepository {
  constructor(private readonly db: GlobalPrismaClient) {}

  // Scoped by account: another account's form is simply not found.
  async findOwned(accountId: string, formId: string): Promise<StoredForm | undefined> {
    const form = await this.db.form.findFirst({
      where: { id: formId, accountId },
      select: {
        id: true,
        title: true,
        workspaceId: true,
        definition: true,
        account: { select: { region: true } },
      },
    });
    if (!form) return undefined;
    const { account, ...rest } = form;
    return { ...rest, accountRegion: account.region };
  }
}
