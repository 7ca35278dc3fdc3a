import { type WebhooksPrismaClient, webhooksKeyedPool } from '@formline/db';
import {
  emptyTables,
  genericPlanOf,
  scratchWebhooksDatabase,
  type ScratchDatabase,
  stepsBeyondKeys,
} from '@formline/testing';
import { enabledOfFormsSql, WebhookRepository, type NewWebhook } from './webhook.repository';

const webhook = (id: string, extra: Partial<NewWebhook> = {}): NewWebhook => ({
  id,
  accountId: 'account-a',
  formId: 'form-1',
  tag: id,
  url: `https://${id}.example.com/hook`,
  enabled: true,
  verifySsl: true,
  secretSealed: null,
  eventTypes: { form_response: true },
  ...extra,
});

// WebhookRepository against PostgreSQL: one webhook a tag in a form, whose
// lookup by tag takes any account's (the caller checks it) while listing and
// deleting are the account's own; the planner reads the enabled webhooks of
// many forms at once.
describe('WebhookRepository against PostgreSQL', () => {
  let database: ScratchDatabase<WebhooksPrismaClient>;
  let webhooks: WebhookRepository;

  beforeAll(async () => {
    database = await scratchWebhooksDatabase();
    webhooks = new WebhookRepository(database.client);
  });
  afterAll(() => database?.dispose());
  beforeEach(() => emptyTables(database.client));

  it('creates a webhook and finds it by form and tag, whichever account holds it', async () => {
    const created = await webhooks.create(webhook('w1', { secretSealed: 'sealed' }));
    expect(created).toMatchObject({
      id: 'w1',
      accountId: 'account-a',
      formId: 'form-1',
      tag: 'w1',
      enabled: true,
      secretSealed: 'sealed',
      eventTypes: { form_response: true },
      disabledReason: null,
    });
    expect(await webhooks.findByTag('form-1', 'w1')).toEqual(created);
    expect(await webhooks.findByTag('form-1', 'no-such-tag')).toBeNull();
    expect(await webhooks.findByTag('form-2', 'w1')).toBeNull();
  });

  it('refuses a second webhook with the tag in the form, not in another form', async () => {
    await webhooks.create(webhook('w1', { tag: 'crm' }));
    await expect(
      webhooks.create(webhook('w2', { tag: 'crm', accountId: 'account-b' })),
    ).rejects.toMatchObject({
      code: 'P2002',
    });
    await webhooks.create(webhook('w3', { tag: 'crm', formId: 'form-2' }));
  });

  it('updates a webhook, and can clear why it was disabled; answers none for one deleted', async () => {
    await webhooks.create(webhook('w1'));
    await database.client.webhook.update({
      where: { id: 'w1' },
      data: { enabled: false, disabledReason: 'gone (410)' },
    });
    const updated = await webhooks.update('w1', {
      enabled: true,
      disabledReason: null,
      url: 'https://new.example.com/hook',
      eventTypes: { form_response: true, form_response_partial: true },
    });
    expect(updated).toMatchObject({
      enabled: true,
      disabledReason: null,
      url: 'https://new.example.com/hook',
      eventTypes: { form_response: true, form_response_partial: true },
    });
    // One deleted meanwhile (or never there) is no error: the caller decides.
    expect(await webhooks.update('no-such-webhook', { enabled: false })).toBeUndefined();
    // Nor one whose subscription is no longer what the caller read.
    const stale = { form_response: true };
    expect(await webhooks.update('w1', { eventTypes: { form_response: false } }, stale)).toBeUndefined();
    expect(
      await webhooks.update('w1', { eventTypes: { form_response: false } }, updated!.eventTypes as object),
    ).toMatchObject({ eventTypes: { form_response: false } });
  });

  it('creates within the cap of a form, parallel creations taking turns', async () => {
    const made = await Promise.all(
      ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((id) => webhooks.createWithinCap(webhook(id), 5)),
    );
    expect(made.filter((row) => typeof row === 'object')).toHaveLength(5);
    expect(made.filter((row) => row === 'form-full')).toHaveLength(3);
    expect(await database.client.webhook.count({ where: { formId: 'form-1' } })).toBe(5);
    // Another form has a cap of its own; 0 is no cap.
    expect(await webhooks.createWithinCap(webhook('other', { formId: 'form-2' }), 5)).toMatchObject({
      id: 'other',
    });
    expect(await webhooks.createWithinCap(webhook('i'), 0)).toMatchObject({ id: 'i' });
  });

  it('answers a tag taken, by an earlier or a parallel creation, with no write', async () => {
    const made = await Promise.all(
      ['w1', 'w2', 'w3', 'w4', 'w5', 'w6'].map((id) =>
        webhooks.createWithinCap(webhook(id, { tag: 'crm' }), 0),
      ),
    );
    expect(made.filter((row) => typeof row === 'object')).toHaveLength(1);
    expect(made.filter((row) => row === 'tag-taken')).toHaveLength(5);
    expect(await database.client.webhook.count()).toBe(1);
  });

  it("lists the account's webhooks of a form, oldest first", async () => {
    for (const [second, id] of ['w2', 'w1', 'w3'].entries()) {
      await webhooks.create(webhook(id));
      await database.client.$executeRaw`
        UPDATE webhooks SET created_at = ${new Date(Date.UTC(2026, 0, 1, 0, 0, second))} WHERE id = ${id}`;
    }
    await webhooks.create(webhook('other-form', { formId: 'form-2' }));
    // The same form's webhook of another account (the form changed hands).
    await webhooks.create(webhook('other-account', { accountId: 'account-b' }));
    expect((await webhooks.listOfForm('account-a', 'form-1')).map((row) => row.id)).toEqual([
      'w2',
      'w1',
      'w3',
    ]);
    expect(await webhooks.listOfForm('account-c', 'form-1')).toEqual([]);
  });

  it("deletes only the account's webhook, once", async () => {
    await webhooks.create(webhook('w1'));
    expect(await webhooks.delete({ accountId: 'account-b', formId: 'form-1', tag: 'w1' })).toBe(false);
    expect(await webhooks.delete({ accountId: 'account-a', formId: 'form-2', tag: 'w1' })).toBe(false);
    expect(await webhooks.delete({ accountId: 'account-a', formId: 'form-1', tag: 'w1' })).toBe(true);
    expect(await webhooks.findByTag('form-1', 'w1')).toBeNull();
    expect(await webhooks.delete({ accountId: 'account-a', formId: 'form-1', tag: 'w1' })).toBe(false);
  });

  it('reads the enabled webhooks of many forms at once, their subscriptions parsed', async () => {
    await webhooks.create(webhook('w1'));
    await webhooks.create(webhook('w2', { formId: 'form-2', eventTypes: { form_response_partial: true } }));
    await webhooks.create(webhook('off', { enabled: false }));
    await webhooks.create(webhook('w3', { formId: 'form-3' }));
    const planning = await webhooks.enabledOfForms(['form-1', 'form-2', 'no-such-form']);
    expect(planning.sort((x, y) => (x.id < y.id ? -1 : 1))).toEqual([
      { id: 'w1', formId: 'form-1', accountId: 'account-a', eventTypes: { form_response: true } },
      { id: 'w2', formId: 'form-2', accountId: 'account-a', eventTypes: { form_response_partial: true } },
    ]);
    expect(await webhooks.enabledOfForms([])).toEqual([]);
  });

  // A keyed statement (libs/db: keyedPoolOf): its plan, made once, looks the
  // forms up in an index whatever the table holds.
  it("plans the planner's read as key lookups on a new, small table", async () => {
    const keyed = await webhooksKeyedPool(database.client).connect();
    try {
      const plan = await genericPlanOf(keyed, enabledOfFormsSql);
      expect(stepsBeyondKeys(plan)).toEqual([]);
      expect(plan).toContain('Index Cond');
    } finally {
      keyed.release();
    }
  });
});
