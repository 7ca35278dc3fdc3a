import { parseFormDefinition } from '@formline/form-definition';
import { summarizeInsights } from './insights.summary';

const definition = parseFormDefinition({
  title: 'Insights',
  fields: [
    { ref: 'first', title: 'First', type: 'short_text' },
    { ref: 'hello', title: 'Hello', type: 'statement' },
    { ref: 'second', title: 'Second', type: 'number' },
  ],
}).definition;
const [first, , second] = definition.fields;

describe('summarizeInsights', () => {
  it('adds the platforms up, weighting each average by its completed responses', () => {
    const summary = summarizeInsights(
      definition,
      [
        { platform: 'desktop', landings: 4, completed: 3, averageSeconds: 10 },
        { platform: 'phone', landings: 1, completed: 1, averageSeconds: 50 },
        { platform: 'smartwatch', landings: 1, completed: 0, averageSeconds: null },
      ],
      [
        { fieldId: first.id, count: 6 },
        { fieldId: second.id, count: 4 },
      ],
      [{ fieldId: first.id, count: 2 }],
    );
    expect(summary.form.summary).toEqual({
      average_time: 20,
      completion_rate: 66.7,
      responses_count: 4,
      total_visits: 6,
      unique_visits: 6,
    });
    expect(summary.form.platforms.map((p) => [p.platform, p.responses_count, p.total_visits])).toEqual([
      ['desktop', 3, 4],
      ['other', 0, 1],
      ['phone', 1, 1],
      ['tablet', 0, 0],
    ]);
    expect(summary.fields).toEqual([
      { id: first.id, ref: 'first', title: 'First', type: 'short_text', views: 6, dropoffs: 2 },
      { id: second.id, ref: 'second', title: 'Second', type: 'number', views: 4, dropoffs: 0 },
    ]);
  });

  it('answers zeros, not NaN, for a form without responses', () => {
    const summary = summarizeInsights(definition, [], [], []);
    expect(summary.form.summary).toEqual({
      average_time: 0,
      completion_rate: 0,
      responses_count: 0,
      total_visits: 0,
      unique_visits: 0,
    });
    expect(summary.fields.map((field) => field.views)).toEqual([0, 0]);
  });
});
