// A 1×1 PNG.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

// sharp (libvips) costs about 20 MB of memory once loaded: it is loaded on
// the first image the media app reads, not with its modules.
describe('image processing', () => {
  it('loads sharp on the first image it reads, not when its module loads', async () => {
    let loaded = false;
    await jest.isolateModulesAsync(async () => {
      jest.doMock('sharp', () => {
        loaded = true;
        return jest.requireActual('sharp');
      });
      const { inspectImage } = await import('./image-processing.js');
      expect(loaded).toBe(false);
      const facts = await inspectImage(png, 1_000_000);
      expect(loaded).toBe(true);
      expect(facts.mediaType).toBe('image/png');
    });
  });
});
