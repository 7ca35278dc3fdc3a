import { imageListLimit } from '@formline/contracts';
import { useScratchAccounts } from '@formline/testing';
import { ImageRepository, type StoredImage } from './image.repository';

const image = (id: string): StoredImage => ({
  id,
  fileName: `${id}.png`,
  mediaType: 'image/png',
  width: 640,
  height: 480,
  hasAlpha: true,
  avgColor: '#336699',
  byteSize: 1234,
});

// ImageRepository against PostgreSQL: every query but findAnywhere (the
// public image URL) is scoped by account, so another account's image is not
// found, not listed, not counted as owned and not deleted.
describe('ImageRepository against PostgreSQL', () => {
  const accounts = useScratchAccounts({ ada: 'eu', bob: 'us' });
  let images: ImageRepository;
  let ada: string;
  let bob: string;

  beforeAll(() => {
    images = new ImageRepository(accounts.client);
  });
  beforeEach(() => ({ ada, bob } = accounts.ids));

  it("creates an image and finds it as its account's, and anywhere", async () => {
    expect(await images.create(ada, image('img-1'))).toEqual(image('img-1'));
    expect(await images.findOwned(ada, 'img-1')).toEqual(image('img-1'));
    expect(await images.findOwned(bob, 'img-1')).toBeUndefined();
    expect(await images.findAnywhere('img-1')).toEqual(image('img-1'));
    expect(await images.findAnywhere('no-such-image')).toBeUndefined();
  });

  it('refuses a second image with the same id', async () => {
    await images.create(ada, image('img-1'));
    await expect(images.create(bob, image('img-1'))).rejects.toMatchObject({ code: 'P2002' });
  });

  it("answers which ids are the account's images", async () => {
    await images.create(ada, image('img-a'));
    await images.create(bob, image('img-b'));
    expect(await images.ownedIds(ada, ['img-a', 'img-b', 'no-such-image'])).toEqual(new Set(['img-a']));
    expect(await images.ownedIds(ada, [])).toEqual(new Set());
  });

  it("lists the account's images newest first, ties by id, at most the list limit", async () => {
    const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));
    const rows = Array.from({ length: imageListLimit + 1 }, (_, i) => ({
      ...image(`img-${String(i).padStart(4, '0')}`),
      accountId: ada,
      // Two images a second: every second a tie.
      createdAt: at(Math.floor(i / 2)),
    }));
    await accounts.client.image.createMany({ data: rows });
    await images.create(bob, image('img-bob'));

    const listed = await images.list(ada);
    expect(listed).toHaveLength(imageListLimit);
    const expected = [...rows]
      .sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime() || (x.id < y.id ? -1 : 1))
      .slice(0, imageListLimit)
      .map((row) => row.id);
    expect(listed.map((row) => row.id)).toEqual(expected);
    expect(listed.slice(0, 3).map((row) => row.id)).toEqual(['img-2000', 'img-1998', 'img-1999']);
    expect(listed.at(-1)?.id).toBe('img-0000');
    expect(await images.list(bob)).toEqual([image('img-bob')]);
  });

  it("deletes only the account's own image, once", async () => {
    await images.create(ada, image('img-1'));
    expect(await images.delete(bob, 'img-1')).toBe(false);
    expect(await images.findAnywhere('img-1')).toBeDefined();
    expect(await images.delete(ada, 'img-1')).toBe(true);
    expect(await images.findAnywhere('img-1')).toBeUndefined();
    expect(await images.delete(ada, 'img-1')).toBe(false);
  });
});
