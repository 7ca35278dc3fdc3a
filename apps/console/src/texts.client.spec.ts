import { englishTexts } from './console.texts';
import { TextsClient } from './texts.client';

describe("the console's texts, downloaded", () => {
  const catalog = { 'forms.heading': 'Formularios' };

  it('downloads only the language chosen, once, from the build’s own file', async () => {
    const asked: string[] = [];
    const client = new TextsClient(
      (input) => {
        asked.push(input);
        return Promise.resolve(new Response(JSON.stringify(catalog), { status: 200 }));
      },
      { es: 'texts-es.0123456789abcdef.json', fr: 'texts-fr.0123456789abcdef.json' },
    );
    expect([...client.available()].sort()).toEqual(['en', 'es', 'fr']);
    const spanish = await client.load('es');
    await client.load('es');
    expect(spanish.t('forms.heading')).toBe('Formularios');
    expect(spanish.tag).toBe('es');
    expect(asked).toEqual(['/console/assets/texts-es.0123456789abcdef.json']);
    expect(await client.load('en')).toBe(englishTexts);
    // A language the build has no file for stays English, without asking.
    expect(await client.load('ja')).toBe(englishTexts);
    expect(asked).toHaveLength(1);
  });

  it('stays English when the file cannot be had, and asks again next time', async () => {
    let calls = 0;
    const client = new TextsClient(
      () => {
        calls += 1;
        return calls === 1
          ? Promise.reject(new TypeError('offline'))
          : Promise.resolve(new Response('[]', { status: 200 }));
      },
      { es: 'texts-es.json' },
    );
    expect(await client.load('es')).toBe(englishTexts);
    expect(await client.load('es')).toBe(englishTexts);
    expect(calls).toBe(2);
  });
});
