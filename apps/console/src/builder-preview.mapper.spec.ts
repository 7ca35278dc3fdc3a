import { previewOf } from './builder-preview.mapper';

describe("the builder's preview address", () => {
  const links = (region: string) => ({
    _links: {
      display: 'https://us.example/to/f1',
      responses: `https://${region}.example/forms/f1/responses`,
    },
  });

  it("frames the page on the console's origin when that is the form's region", () => {
    expect(previewOf(links('us'), 'https://us.example')).toEqual({ framed: 'https://us.example/to/f1' });
    expect(previewOf(links('eu'), 'https://eu.example')).toEqual({ framed: 'https://eu.example/to/f1' });
  });

  it("names the region's address when the console was opened on the other one", () => {
    expect(previewOf(links('eu'), 'https://us.example')).toEqual({
      elsewhere: 'https://us.example/to/f1',
      regionOrigin: 'https://eu.example',
    });
    expect(previewOf({}, 'https://us.example')).toBeUndefined();
  });
});
