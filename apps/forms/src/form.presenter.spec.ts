import { presentForm } from './form.presenter';

const baseUrls = { us: 'https://api.example.com', eu: 'https://api.eu.example.com' };
const form = {
  id: 'abc123',
  title: 'Feedback',
  workspaceId: 'ws1',
  definition: { fields: [] },
  accountRegion: 'us' as const,
};

describe('presentForm', () => {
  it("links responses to the account's region and everything else to the default address", () => {
    const eu = presentForm({ ...form, accountRegion: 'eu' }, baseUrls);
    expect(eu._links).toEqual({
      display: 'https://api.example.com/to/abc123',
      responses: 'https://api.eu.example.com/forms/abc123/responses',
    });
    expect(eu.workspace).toEqual({ href: 'https://api.example.com/workspaces/ws1' });
    expect(presentForm(form, baseUrls)._links.responses).toBe(
      'https://api.example.com/forms/abc123/responses',
    );
  });

  it('defaults the language to en', () => {
    expect(presentForm(form, baseUrls).language).toBe('en');
  });
});
