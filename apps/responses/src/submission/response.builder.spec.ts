import { parseFormDefinition } from '@formline/form-definition';
import { buildResponse } from './response.builder';

const definition = parseFormDefinition({
  title: 'Payload',
  fields: [
    { ref: 'name', title: 'Name', type: 'short_text' },
    {
      ref: 'tags',
      title: 'Tags',
      type: 'multiple_choice',
      properties: {
        allow_multiple_selection: true,
        allow_other_choice: true,
        choices: [
          { ref: 'a', label: 'A' },
          { ref: 'b', label: 'B' },
        ],
      },
    },
  ],
}).definition;

function facts(now = new Date(), landedAt?: string) {
  return {
    formId: 'form1',
    accountId: 'acc1',
    definition,
    path: { visited: [], variables: { score: 0, price: 0 }, ending: definition.thankyou_screens[0] },
    answers: [],
    hidden: {},
    landedAt,
    metadata: {},
    now,
  };
}

function build(now: Date, landedAt?: string) {
  return buildResponse(facts(now, landedAt));
}

describe('buildResponse', () => {
  it("describes each question in definition.fields[] as Typeform's payload does", () => {
    const fields = (build(new Date()).event.form_response.definition as { fields: unknown[] }).fields;
    const [choice] = definition.fields[1].properties.choices ?? [];
    expect(fields).toEqual([
      {
        id: definition.fields[0].id,
        title: 'Name',
        type: 'short_text',
        ref: 'name',
        allow_multiple_selections: false,
        allow_other_choice: false,
      },
      {
        id: definition.fields[1].id,
        title: 'Tags',
        type: 'multiple_choice',
        ref: 'tags',
        allow_multiple_selections: true,
        allow_other_choice: true,
        choices: [
          { id: choice.id, ref: 'a', label: 'A' },
          { id: expect.any(String), ref: 'b', label: 'B' },
        ],
      },
    ]);
  });

  it('shows landed_at and submitted_at in whole seconds, in the response and the payload', () => {
    const built = build(new Date('2026-11-22T23:13:39.987Z'), '2026-11-22T23:10:05.250Z');
    expect(built.resource).toMatchObject({
      landed_at: '2026-11-22T23:10:05Z',
      submitted_at: '2026-11-22T23:13:39Z',
    });
    expect(built.event.form_response).toMatchObject({
      landed_at: '2026-11-22T23:10:05Z',
      submitted_at: '2026-11-22T23:13:39Z',
    });
    // The stored columns keep the milliseconds, which order responses within a second.
    expect(built.submittedAt.toISOString()).toBe('2026-11-22T23:13:39.987Z');
  });

  it("carries the form's partial_responses_to_all_integrations in definition.settings, as Typeform's payloads", () => {
    const settingsOf = (def: typeof definition) =>
      (buildResponse({ ...facts(), definition: def }).event.form_response.definition as { settings: unknown })
        .settings;
    expect(settingsOf(definition)).toEqual({ partial_responses_to_all_integrations: false });
    const sendsAll = parseFormDefinition({
      title: 'All',
      settings: { partial_responses_to_all_integrations: true },
    }).definition;
    expect(settingsOf(sendsAll)).toEqual({ partial_responses_to_all_integrations: true });
  });
});

describe('buildResponse with a multi_format (video and audio) question', () => {
  const video = parseFormDefinition({
    title: 'Video',
    fields: [{ ref: 'hello', title: 'Say hello', type: 'multi_format' }],
  }).definition;
  const [field] = video.fields;
  const answer = {
    field: { id: field.id, ref: 'hello', type: 'multi_format' },
    type: 'multi_format',
    multi_format: { format: 'text' as const, text: 'Hello there' },
  };

  it('carries the answer in the resource and the payload, and describes the question', () => {
    const built = buildResponse({
      formId: 'form1',
      accountId: 'acc1',
      definition: video,
      path: { visited: [], variables: { score: 0, price: 0 }, ending: video.thankyou_screens[0] },
      answers: [answer],
      hidden: {},
      metadata: {},
      now: new Date(),
    });
    expect(built.resource.answers).toEqual([answer]);
    expect(built.event.form_response.answers).toEqual([answer]);
    expect(built.event.form_response.definition).toMatchObject({
      fields: [{ id: field.id, type: 'multi_format', ref: 'hello' }],
    });
    expect(built.searchText).toContain('hello there');
    expect(built.answeredFields).toEqual([answer.field.id, answer.field.ref]);
  });
});
