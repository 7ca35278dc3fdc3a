import { callApi } from './http';

// A tiny PNG uploaded to the account through the Images API, for forms that
// show pictures: a form may reference only its own account's images.
// Answers the image's address (`src`), as a form's attachment names it.
export async function uploadTestImage(baseUrl: string, token: string, fileName: string): Promise<string> {
  const { default: sharp } = await import('sharp');
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
  const uploaded = await callApi(`${baseUrl}/images`, {
    token,
    method: 'POST',
    body: { image: png.toString('base64'), file_name: fileName },
  });
  if (uploaded.status !== 201) throw new Error(`image upload answered ${uploaded.status}: ${uploaded.text}`);
  return uploaded.body.src as string;
}

// 25 megapixels (the default IMAGE_MAX_PIXELS) of smooth noise: about 1.5 MB
// of JPEG, under IMAGE_MAX_BYTES, that decodes to 75 MB. The image work's
// tests and the outside check render sizes of it.
export async function largeTestImage(): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const noise = await sharp({
    create: {
      width: 100,
      height: 100,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  })
    .png()
    .toBuffer();
  return sharp(noise).resize(5000, 5000).jpeg({ quality: 80 }).toBuffer();
}
