import {
  editableFormOf,
  fieldOf,
  formOf,
  hiddenNameProblem,
  moved,
  newQuestion,
  problemsByQuestion,
  questionTypes,
  themeIdOf,
} from './builder-form.mapper';

const keys = () => {
  let next = 0;
  return () => `new-${++next}`;
};

// A form as GET /forms/{id} gives it: ids and refs on everything, the default
// ending last, and parts the builder has no inputs for.
const read = {
  id: 'f1',
  title: 'Trip',
  _links: { display: 'https://forms.example/to/f1' },
  settings: { is_public: true },
  logic: [{ type: 'field', ref: 'name', actions: [] }],
  theme: { href: 'https://api.example/themes/t1' },
  hidden: ['source'],
  welcome_screens: [
    { id: 'w1', ref: 'hello', title: 'Hi', properties: { show_button: true, button_text: 'Go' } },
  ],
  thankyou_screens: [
    { id: 'e1', ref: 'bye', title: 'Thanks', properties: { show_button: false } },
    { id: 'd1', ref: 'default_tys', title: 'Done', properties: { show_button: false } },
  ],
  fields: [
    {
      id: 'i1',
      ref: 'name',
      title: 'Name?',
      type: 'short_text',
      validations: { required: true, max_length: 20 },
    },
    {
      id: 'i2',
      ref: 'meal',
      title: 'Meal?',
      type: 'multiple_choice',
      attachment: { type: 'image', href: 'https://api.example/images/x' },
      properties: {
        description: 'Pick',
        randomize: true,
        choices: [
          { id: 'c1', ref: 'fish', label: 'Fish' },
          { id: 'c2', ref: 'pasta', label: 'Pasta' },
        ],
      },
      validations: { required: false },
    },
    { id: 'i3', ref: 'age', title: 'Age?', type: 'number', validations: { min_value: 0, max_value: 120 } },
    {
      id: 'i4',
      ref: 'mood',
      title: 'Mood?',
      type: 'opinion_scale',
      properties: { steps: 5, start_at_one: true, labels: { left: 'Bad', right: 'Good' } },
    },
    {
      id: 'i5',
      ref: 'note',
      title: 'Thanks for coming',
      type: 'statement',
      properties: { button_text: 'On' },
    },
    { id: 'i6', ref: 'box', title: 'About you', type: 'group', properties: { fields: [] } },
  ],
};

describe("the builder's form: the API's JSON into inputs and back", () => {
  it('gives back the form as read when nothing was edited, every part it has no input for kept', () => {
    const editable = editableFormOf(read, keys());
    expect(formOf(editable)).toEqual(read);
  });

  it('reads each input from its place in the form', () => {
    const editable = editableFormOf(read, keys());
    expect(editable).toMatchObject({
      title: 'Trip',
      hidden: ['source'],
      themeHref: 'https://api.example/themes/t1',
    });
    expect(editable.welcome).toMatchObject({ title: 'Hi', buttonText: 'Go', description: '' });
    // The owner's ending, not the API's default one.
    expect(editable.ending).toMatchObject({ title: 'Thanks' });
    const [name, meal, age, mood, note] = editable.questions;
    expect(name).toMatchObject({ key: 'name', required: true, maxLength: '20' });
    expect(meal).toMatchObject({ description: 'Pick', required: false, allowMultiple: false });
    expect(meal.choices.map((choice) => [choice.key, choice.label])).toEqual([
      ['fish', 'Fish'],
      ['pasta', 'Pasta'],
    ]);
    expect(age).toMatchObject({ minValue: '0', maxValue: '120' });
    expect(mood).toMatchObject({
      steps: '5',
      startAtOne: true,
      labelLeft: 'Bad',
      labelCenter: '',
      labelRight: 'Good',
    });
    expect(note).toMatchObject({ buttonText: 'On' });
  });

  it('writes each edit where the API reads it, dropping what was emptied', () => {
    const editable = editableFormOf(read, keys());
    const [name, meal, age, mood, note] = editable.questions;
    expect(fieldOf({ ...name, maxLength: '', required: false }).validations).toEqual({ required: false });
    expect(fieldOf({ ...age, minValue: '-5', maxValue: 'x' }).validations).toEqual({ min_value: -5 });
    const changed = fieldOf({
      ...meal,
      allowMultiple: true,
      description: '',
      choices: [meal.choices[1], { key: 'new-9', label: 'Salad', source: {} }],
    });
    expect(changed).toMatchObject({ id: 'i2', attachment: read.fields[1].attachment });
    expect(changed.properties).toEqual({
      randomize: true,
      allow_multiple_selection: true,
      choices: [
        { id: 'c2', ref: 'pasta', label: 'Pasta' },
        { ref: 'new-9', label: 'Salad' },
      ],
    });
    expect(
      fieldOf({ ...mood, labelLeft: '', labelRight: '', startAtOne: false, steps: '7' }).properties,
    ).toEqual({
      steps: 7,
    });
    // A statement takes no answer: no validations, even "required".
    expect(fieldOf({ ...note, required: true, buttonText: '' })).toEqual({
      id: 'i5',
      ref: 'note',
      title: 'Thanks for coming',
      type: 'statement',
    });
  });

  it('makes new questions of every type with a fresh ref and what the API needs of them', () => {
    const newKey = keys();
    const made = questionTypes.map(({ type }) => fieldOf(newQuestion(type, newKey)));
    expect(new Set(made.map((field) => field.ref)).size).toBe(questionTypes.length);
    expect(made.find((field) => field.type === 'dropdown')).toMatchObject({
      properties: { choices: [{ label: 'Choice 1' }, { label: 'Choice 2' }] },
    });
    expect(made.find((field) => field.type === 'rating')).toMatchObject({ properties: { steps: 5 } });
    expect(made.find((field) => field.type === 'opinion_scale')).toMatchObject({ properties: { steps: 11 } });
    expect(made.find((field) => field.type === 'email')).toEqual({
      ref: expect.stringMatching(/^new-/),
      title: '',
      type: 'email',
    });
    expect(fieldOf({ ...newQuestion('yes_no', newKey), required: true }).validations).toEqual({
      required: true,
    });
  });

  it('adds and removes the welcome screen, the own ending, hidden fields and the theme', () => {
    const editable = editableFormOf(read, keys());
    const body = formOf({ ...editable, welcome: undefined, ending: undefined, hidden: [], themeHref: '' });
    expect(body.welcome_screens).toEqual([]);
    expect(body.thankyou_screens).toEqual([read.thankyou_screens[1]]);
    expect(body.hidden).toEqual([]);
    expect(body).not.toHaveProperty('theme');

    const bare = editableFormOf({ title: 'New', thankyou_screens: [read.thankyou_screens[1]] }, keys());
    expect(bare.welcome).toBeUndefined();
    expect(bare.ending).toBeUndefined();
    const screen = { title: 'Bye', description: 'See you', buttonText: '', source: {} };
    expect(formOf({ ...bare, ending: screen, welcome: { ...screen, title: 'Hello' } })).toMatchObject({
      welcome_screens: [{ title: 'Hello', properties: { description: 'See you' } }],
      thankyou_screens: [{ title: 'Bye' }, { ref: 'default_tys' }],
    });
  });

  it('moves an item within the list, and nowhere past its ends', () => {
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b', 'c'], 2, -2)).toEqual(['c', 'a', 'b']);
    expect(moved(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moved(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });

  it("checks a hidden field's name by the API's rule", () => {
    expect(hiddenNameProblem('utm_source', ['source'])).toBeUndefined();
    expect(hiddenNameProblem('', [])).toBe('Type a name.');
    expect(hiddenNameProblem('Source', [])).toBe('Use lowercase letters, digits and _ only.');
    expect(hiddenNameProblem('__proto__', [])).toBe('That name is reserved.');
    expect(hiddenNameProblem('source', ['source'])).toMatch(/already/);
  });

  it("sorts the API's refusals to the questions sent, by key, paths made relative", () => {
    const { questions } = editableFormOf(read, keys());
    expect(
      problemsByQuestion(questions, [
        { field: 'fields[1].properties.choices[0].label', description: 'label is required' },
        { field: 'fields[0]', description: 'bad' },
        { field: 'fields[9].title', description: 'none such' },
        { field: 'title', description: 'title is required' },
      ]),
    ).toEqual({
      byKey: {
        meal: [{ field: 'properties.choices[0].label', description: 'label is required' }],
        name: [{ field: '', description: 'bad' }],
      },
      rest: [
        { field: 'fields[9].title', description: 'none such' },
        { field: 'title', description: 'title is required' },
      ],
    });
  });

  it("reads a theme's id from its address, by the path alone", () => {
    expect(themeIdOf('https://api.example/themes/t1')).toBe('t1');
    expect(themeIdOf('http://other/themes/default/')).toBe('default');
    expect(themeIdOf('https://api.example/images/t1')).toBeUndefined();
    expect(themeIdOf('not an address')).toBeUndefined();
  });
});
