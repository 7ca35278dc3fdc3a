import { distributionOf, durationInWords, platformInWords, rateInWords } from './insights.format';

describe("the Insights screen's figures in words", () => {
  it('says a rate, a time and a platform', () => {
    expect(rateInWords(66.7)).toBe('66.7%');
    expect(rateInWords(100)).toBe('100%');
    expect(rateInWords(0)).toBe('0%');
    expect(durationInWords(0, 0)).toBe('None yet');
    expect(durationInWords(0, 2)).toBe('0 s');
    expect(durationInWords(45, 1)).toBe('45 s');
    expect(durationInWords(65, 1)).toBe('1 min 5 s');
    expect(durationInWords(3 * 3600 + 125, 1)).toBe('3 h 2 min');
    expect(platformInWords('phone')).toBe('Phone');
  });

  it("lists a question's choices, then other, each with its share of the question's answers", () => {
    const field = {
      id: 'f1',
      ref: 'meal',
      title: 'Meal?',
      type: 'multiple_choice' as const,
      answers_count: 3,
      choices: [
        { id: 'c1', ref: 'fish', label: 'Fish', count: 2 },
        { id: 'c2', ref: 'pasta', label: '', count: 0 },
      ],
      other_count: 1,
    };
    expect(distributionOf(field)).toEqual([
      { label: 'Fish', count: 2, percent: 67 },
      { label: 'pasta', count: 0, percent: 0 },
      { label: 'Other', count: 1, percent: 33 },
    ]);
  });

  it('lists the values of a scale or a yes/no, and none for a number question or no answers', () => {
    const base = { id: 'f', ref: 'r', title: 'T', answers_count: 0 };
    expect(
      distributionOf({
        ...base,
        type: 'yes_no',
        answers_count: 2,
        values: [
          { value: true, count: 2 },
          { value: false, count: 0 },
        ],
      }),
    ).toEqual([
      { label: 'Yes', count: 2, percent: 100 },
      { label: 'No', count: 0, percent: 0 },
    ]);
    expect(distributionOf({ ...base, type: 'rating', values: [{ value: 1, count: 0 }] })).toEqual([
      { label: '1', count: 0, percent: 0 },
    ]);
    expect(distributionOf({ ...base, type: 'number', average: null })).toEqual([]);
  });
});
