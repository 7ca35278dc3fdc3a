import { Injectable } from '@nestjs/common';
import { GlobalPrismaClient } from '@formline/db';
import { imageListLimit, type ImageMediaType } from '@formline/contracts';

export interface StoredImage {
  id: string;
  fileName: string;
  mediaType: ImageMediaType;
  width: number;
  height: number;
  hasAlpha: boolean;
  avgColor: string;
  byteSize: number;
}

const imageColumns = {
  id: true,
  fileName: true,
  mediaType: true,
  width: true,
  height: true,
  hasAlpha: true,
  avgColor: true,
  byteSize: true,
} as const;

const toStored = (row: Omit<StoredImage, 'mediaType'> & { mediaType: string }): StoredImage => ({
  ...row,
  mediaType: row.mediaType as ImageMediaType,
});

// Image records in the global database; every query but `findAnywhere` is
// scoped by account, so another account's image is simply not found.
@Injectable()
export class ImageRepository {
  constructor(private readonly db: GlobalPrismaClient) {}

  async create(accountId: string, image: StoredImage): Promise<StoredImage> {
    return toStored(await this.db.image.create({ data: { ...image, accountId }, select: imageColumns }));
  }

  async findOwned(accountId: string, imageId: string): Promise<StoredImage | undefined> {
    const row = await this.db.image.findFirst({ where: { id: imageId, accountId }, select: imageColumns });
    return row ? toStored(row) : undefined;
  }

  async findAnywhere(imageId: string): Promise<StoredImage | undefined> {
    const row = await this.db.image.findUnique({ where: { id: imageId }, select: imageColumns });
    return row ? toStored(row) : undefined;
  }

  // Which of these ids are images of the account.
  async ownedIds(accountId: string, imageIds: readonly string[]): Promise<Set<string>> {
    if (imageIds.length === 0) return new Set();
    const rows = await this.db.image.findMany({
      where: { accountId, id: { in: [...imageIds] } },
      select: { id: true },
    });
    return new Set(rows.map((row) => row.id));
  }

  async list(accountId: string): Promise<StoredImage[]> {
    const rows = await this.db.image.findMany({
      where: { accountId },
      select: imageColumns,
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      take: imageListLimit,
    });
    return rows.map(toStored);
  }

  async delete(accountId: string, imageId: string): Promise<boolean> {
    const { count } = await this.db.image.deleteMany({ where: { id: imageId, accountId } });
    return count === 1;
  }
}
