// A form that uses every part of the form model, valid as it is. Tests change
// one path at a time and check that the change is accepted or rejected.
export function fullForm(): Record<string, unknown> {
  const image = {
    type: 'image',
    href: 'https://images.example.com/a.png',
    properties: { description: 'alt text' },
  };
  return {
    title: 'Everything in the form model',
    language: 'en',
    fields: [
      {
        ref: 'name',
        title: 'Your name?',
        type: 'short_text',
        attachment: image,
        layout: {
          type: 'split',
          placement: 'left',
          attachment: image,
          viewport_overrides: { small: { type: 'stack' }, large: { type: 'split', placement: 'right' } },
        },
        validations: { required: true, max_length: 50 },
      },
      {
        ref: 'color',
        title: 'Favourite colour?',
        type: 'multiple_choice',
        properties: {
          choices: [
            { ref: 'red', label: 'Red' },
            { ref: 'blue', label: 'Blue' },
          ],
        },
      },
      {
        ref: 'intro',
        title: 'Watch this',
        type: 'statement',
        attachment: { type: 'video', href: 'https://www.youtube.com/watch?v=abc', scale: 0.8 },
      },
    ],
    hidden: ['source'],
    variables: { score: 0, price: 0 },
    welcome_screens: [
      {
        ref: 'hello',
        title: 'Hello',
        properties: { description: 'Hi', show_button: true, button_text: 'Go' },
      },
    ],
    thankyou_screens: [
      {
        ref: 'bye',
        title: 'Bye',
        type: 'thankyou_screen',
        properties: { show_button: true, button_text: 'Again', button_mode: 'reload', share_icons: false },
      },
    ],
    logic: [
      {
        type: 'field',
        ref: 'color',
        actions: [
          {
            action: 'jump',
            details: { to: { type: 'thankyou', value: 'bye' } },
            condition: {
              op: 'is',
              vars: [
                { type: 'field', value: 'color' },
                { type: 'choice', value: 'red' },
              ],
            },
          },
          {
            action: 'add',
            details: { target: { type: 'variable', value: 'score' }, value: { type: 'constant', value: 1 } },
            condition: { op: 'always', vars: [] },
          },
        ],
      },
    ],
    theme: { href: 'https://api.example.com/themes/abc' },
    settings: {
      language: 'en',
      is_public: true,
      progress_bar: 'percentage',
      meta: { title: 'Meta', allow_indexing: true, image: { href: 'https://images.example.com/m.png' } },
      milestones: [{ field_ref: 'name' }],
    },
    cui_settings: { avatar: 'https://images.example.com/me.png', typing_emulation_speed: 'fast' },
  };
}

// Sets a value at a path such as `fields[0].layout.type` (undefined deletes it).
export function withValue(
  form: Record<string, unknown>,
  path: string,
  value: unknown,
): Record<string, unknown> {
  const copy = structuredClone(form);
  const keys = path.split(/\.|\[(\d+)\]/).filter((key) => key !== undefined && key !== '');
  let node = copy;
  for (const key of keys.slice(0, -1)) {
    node[key] ??= {};
    node = node[key] as Record<string, unknown>;
  }
  const last = keys[keys.length - 1];
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}
