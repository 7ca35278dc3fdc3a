import { normalizeForm } from '@formline/form-definition';
import { presentForm, presentFormSummary } from './form.presenter';
import { ResourceLinks } from './resource-links';

const links = new ResourceLinks({ us: 'https://api.example.com', eu: 'https://api.eu.example.com' });
const stored = {
  id: 'abc123',
  accountId: 'acc1',
  region: 'us' as const,
  title: 'Feedback',
  workspaceId: 'ws1',
  definition: normalizeForm({
    title: 'Feedback',
    fields: [{ ref: 'q1', title: 'Hi?', type: 'short_text' }],
    settings: { milestones: [{ field_ref: 'q1' }] },
  }),
  version: 3,
  createdAt: new Date('2026-01-01T00:00:00Z'),
  updatedAt: new Date('2026-01-02T00:00:00Z'),
};

describe('presentForm', () => {
  it("links responses to the account's region and everything else to the default address", () => {
    const eu = presentForm(stored, 'eu', links);
    expect(eu._links).toEqual({
      display: 'https://api.example.com/to/abc123',
      responses: 'https://api.eu.example.com/forms/abc123/responses',
    });
    expect(eu.workspace).toEqual({ href: 'https://api.example.com/workspaces/ws1' });
    expect(eu.theme).toEqual({ href: 'https://api.example.com/themes/default' });
    expect(presentForm(stored, 'us', links)._links.responses).toBe(
      'https://api.example.com/forms/abc123/responses',
    );
  });

  it('lists the properties in one fixed order', () => {
    expect(Object.keys(presentForm(stored, 'us', links))).toEqual([
      'id',
      'type', // where Typeform puts it (its form resource reference leaves it out)
      'title',
      'language',
      'fields',
      'hidden',
      'variables',
      'welcome_screens',
      'thankyou_screens',
      'logic',
      'theme',
      'workspace',
      '_links',
      'settings',
      'cui_settings',
      'created_at',
      'last_updated_at',
    ]);
  });

  it('computes milestone status on output', () => {
    const settings = presentForm(stored, 'us', links).settings as { milestones: unknown };
    expect(settings.milestones).toEqual([{ field_ref: 'q1', status: 'active' }]);
  });

  it('summarises a form for listings', () => {
    const { definition: _definition, ...row } = stored;
    const listed = { ...row, listed: { type: null, isPublic: true, themeHref: null } };
    expect(presentFormSummary(listed, 'eu', links)).toEqual({
      id: 'abc123',
      type: 'quiz', // stored before forms kept their type
      title: 'Feedback',
      last_updated_at: '2026-01-02T00:00:00.000Z',
      created_at: '2026-01-01T00:00:00.000Z',
      settings: { is_public: true },
      self: { href: 'https://api.example.com/forms/abc123' },
      theme: { href: 'https://api.example.com/themes/default' },
      _links: {
        display: 'https://api.example.com/to/abc123',
        responses: 'https://api.eu.example.com/forms/abc123/responses',
      },
    });
  });
});
