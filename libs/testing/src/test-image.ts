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
