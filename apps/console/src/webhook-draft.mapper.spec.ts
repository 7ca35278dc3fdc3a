import type { WebhookResource } from '@formline/contracts';
import { bodyOf, draftOf, problemsOf } from './webhook-draft.mapper';

const stored: WebhookResource = {
  id: 'w1',
  form_id: 'f1',
  tag: 'orders',
  url: 'https://example.com/hook',
  enabled: false,
  verify_ssl: false,
  secret: 'kept-secret',
  event_types: { form_response: false, form_response_partial: true },
  disabled_reason: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

describe("the webhook editor's draft", () => {
  it('starts a new webhook on, verifying TLS, for completed submissions', () => {
    expect(draftOf()).toEqual({
      tag: '',
      url: '',
      secret: '',
      removeSecret: false,
      enabled: true,
      verifySsl: true,
      formResponse: true,
      formResponsePartial: false,
    });
  });

  it('edits a stored webhook without ever holding its secret', () => {
    const draft = draftOf(stored);
    expect(draft).toMatchObject({
      tag: 'orders',
      enabled: false,
      verifySsl: false,
      formResponsePartial: true,
    });
    expect(JSON.stringify(draft)).not.toContain('kept-secret');
  });

  it('sends the secret only when typed, null when removed, and nothing to keep it', () => {
    const draft = draftOf(stored);
    const kept = bodyOf(draft);
    expect(kept).toEqual({
      url: 'https://example.com/hook',
      enabled: false,
      verify_ssl: false,
      event_types: { form_response: false, form_response_partial: true },
    });
    expect('secret' in kept).toBe(false);
    expect(bodyOf({ ...draft, secret: 'new one' }).secret).toBe('new one');
    expect(bodyOf({ ...draft, secret: 'ignored', removeSecret: true }).secret).toBeNull();
  });

  it("checks the API's rules beside each field before sending", () => {
    const fields = (draft: Parameters<typeof problemsOf>[0], creating = true) =>
      problemsOf(draft, creating).map((problem) => problem.field);
    expect(fields({ ...draftOf(), tag: 'orders', url: 'https://x.example' })).toEqual([]);
    expect(fields(draftOf())).toEqual(['tag', 'url']);
    for (const tag of ['-dash', 'a..b', 'has space', 'x'.repeat(101), 'constructor'])
      expect(fields({ ...draftOf(), tag, url: 'https://x.example' })).toEqual(['tag']);
    // An existing webhook's tag is its name: not checked again.
    expect(fields({ ...draftOf(stored), tag: 'anything at all' }, false)).toEqual([]);
    expect(fields({ ...draftOf(stored), url: 'ftp://x' }, false)).toEqual(['url']);
    expect(fields({ ...draftOf(stored), secret: 's'.repeat(257) }, false)).toEqual(['secret']);
    expect(fields({ ...draftOf(stored), formResponse: false, formResponsePartial: false }, false)).toEqual([
      'event_types',
    ]);
  });
});
