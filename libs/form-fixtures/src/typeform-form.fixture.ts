// A form as Typeform's Create API documents one, with every field type a form
// can hold, each with the properties and validations Typeform gives it: what
// a client copies from a real Typeform form into POST /forms. Tests send it
// and read it back. Its pictures are the account's own images (a form may
// show no other): `imageHref` gives the address of the one named.
export function typeformFormWithEveryField(imageHref: (name: string) => string): Record<string, unknown> {
  const image = (name: string) => ({
    type: 'image',
    href: imageHref(name),
    properties: { description: `Picture of ${name}` },
  });
  // Choices as Typeform writes them: `{ref, label}`, the ref from a prefix and the label.
  const choices = (prefix: string, labels: readonly string[], extra?: (label: string) => object) =>
    labels.map((label) => ({
      ref: `${prefix}_${label.split(' ')[0].toLowerCase()}`,
      label,
      ...extra?.(label),
    }));
  return {
    title: 'Customer onboarding survey',
    type: 'score',
    language: 'en',
    hidden: ['utm_source', 'customer_id'],
    variables: { score: 0, price: 10 },
    // As Typeform's GET /forms/{id} gives them: Typeform's names, its own switches.
    settings: {
      language: 'en',
      progress_bar: 'proportion',
      meta: { allow_indexing: false, description: 'Tell us about yourself' },
      hide_navigation: false,
      is_public: true,
      is_trial: false,
      show_progress_bar: true,
      show_typeform_branding: false,
      are_uploads_public: false,
      show_time_to_complete: true,
      show_number_of_submissions: false,
      show_cookie_consent: false,
      show_question_number: true,
      hide_required_indicator: false,
      show_key_hint_on_choices: true,
      autosave_progress: true,
      free_form_navigation: false,
      use_lead_qualification: false,
      pro_subdomain_enabled: false,
      auto_translate: true,
      partial_responses_to_all_integrations: true,
      google_analytics: 'UA-12345-1',
      facebook_pixel: '123456789012345',
      google_tag_manager: 'GTM-ABC123',
    },
    welcome_screens: [
      {
        ref: 'welcome',
        title: 'Welcome aboard!',
        properties: { show_button: true, button_text: 'Start', description: 'Takes two minutes.' },
      },
    ],
    thankyou_screens: [
      {
        ref: 'thanks',
        title: 'Thanks, {{field:contact_first_name}}!',
        type: 'thankyou_screen',
        properties: { show_button: false, share_icons: false, button_mode: 'reload', button_text: 'again' },
      },
    ],
    fields: [
      {
        ref: 'intro',
        title: 'A few questions about you',
        type: 'statement',
        properties: { description: 'We read every answer.', button_text: 'Continue', hide_marks: true },
      },
      {
        ref: 'full_name',
        title: 'What is your name?',
        type: 'short_text',
        validations: { required: true, max_length: 80 },
      },
      {
        ref: 'about',
        title: 'Tell us about your team',
        type: 'long_text',
        properties: { description: 'A sentence or two.' },
        validations: { required: false, max_length: 1000 },
      },
      { ref: 'work_email', title: 'Your work email?', type: 'email', validations: { required: true } },
      {
        ref: 'team_size',
        title: 'How many people are in your team?',
        type: 'number',
        validations: { required: false, min_value: 1, max_value: 10000 },
      },
      {
        ref: 'role',
        title: 'What is your role?',
        type: 'multiple_choice',
        properties: {
          randomize: false,
          allow_multiple_selection: false,
          allow_other_choice: true,
          vertical_alignment: true,
          choices: choices('role', ['Engineer', 'Designer', 'Manager']),
        },
        validations: { required: true },
      },
      {
        ref: 'mascot',
        title: 'Pick a mascot',
        type: 'picture_choice',
        properties: {
          randomize: false,
          allow_multiple_selection: true,
          allow_other_choice: false,
          supersized: true,
          show_labels: true,
          choices: choices('mascot', ['Cat', 'Dog', 'Owl'], (label) => ({
            attachment: image(`${label.toLowerCase()}.png`),
          })),
        },
        validations: { required: false, min_selection: 1, max_selection: 2 },
      },
      {
        ref: 'country',
        title: 'Where are you based?',
        type: 'dropdown',
        properties: {
          alphabetical_order: true,
          randomize: false,
          choices: choices('country', ['Spain', 'France', 'United States']),
        },
        validations: { required: false },
      },
      {
        ref: 'recommend',
        title: 'How likely are you to recommend us to a friend?',
        type: 'nps',
        properties: { labels: { left: 'Not likely', center: 'Maybe', right: 'Very likely' } },
        validations: { required: true },
      },
      {
        ref: 'ease',
        title: 'How easy was the setup?',
        type: 'opinion_scale',
        properties: { steps: 5, start_at_one: true, labels: { left: 'Hard', right: 'Easy' } },
        validations: { required: false },
      },
      {
        ref: 'stars',
        title: 'Rate the documentation',
        type: 'rating',
        properties: { steps: 5, shape: 'star' },
        validations: { required: false },
      },
      {
        ref: 'priorities',
        title: 'Rank these by importance',
        type: 'ranking',
        properties: {
          randomize: false,
          choices: choices('prio', ['Speed', 'Price', 'Support']),
        },
        validations: { required: false },
      },
      {
        ref: 'satisfaction',
        title: 'How satisfied are you with...',
        type: 'matrix',
        properties: {
          description: 'One answer per row.',
          fields: ['Onboarding', 'Billing'].map((row) => ({
            ref: `satisfaction_${row.toLowerCase()}`,
            title: row,
            type: 'multiple_choice',
            properties: {
              allow_multiple_selection: false,
              choices: choices(`satisfaction_${row.toLowerCase()}`, ['Unhappy', 'Neutral', 'Happy']),
            },
            validations: { required: false },
          })),
        },
      },
      {
        ref: 'contact',
        title: 'How can we reach you?',
        type: 'contact_info',
        properties: {
          fields: [
            {
              ref: 'contact_first_name',
              title: 'First name',
              type: 'short_text',
              properties: { subfield_key: 'first_name' },
              validations: { required: true },
            },
            {
              ref: 'contact_last_name',
              title: 'Last name',
              type: 'short_text',
              properties: { subfield_key: 'last_name' },
              validations: { required: false },
            },
            {
              ref: 'contact_email',
              title: 'Email',
              type: 'email',
              properties: { subfield_key: 'email' },
              validations: { required: true },
            },
            {
              ref: 'contact_phone',
              title: 'Phone number',
              type: 'phone_number',
              properties: { subfield_key: 'phone_number', default_country_code: 'ES' },
              validations: { required: false },
            },
            {
              ref: 'contact_company',
              title: 'Company',
              type: 'short_text',
              properties: { subfield_key: 'company' },
              validations: { required: false },
            },
          ],
        },
      },
      { ref: 'postal', title: 'Where should we send the welcome pack?', type: 'address' },
      {
        ref: 'phone',
        title: 'A phone number for urgent matters?',
        type: 'phone_number',
        properties: { default_country_code: 'US' },
        validations: { required: false },
      },
      { ref: 'site', title: 'Your company website?', type: 'website', validations: { required: false } },
      {
        ref: 'start_date',
        title: 'When do you want to start?',
        type: 'date',
        properties: { structure: 'DDMMYYYY', separator: '/' },
        validations: { required: false },
      },
      { ref: 'newsletter', title: 'Subscribe to our newsletter?', type: 'yes_no' },
      {
        ref: 'team_group',
        title: 'About your team',
        type: 'group',
        properties: {
          description: 'Two quick questions.',
          button_text: 'Continue',
          show_button: true,
          fields: [
            { ref: 'team_remote', title: 'Is your team remote?', type: 'yes_no' },
            { ref: 'team_name', title: 'Team name?', type: 'short_text' },
          ],
        },
      },
      {
        ref: 'resume',
        title: 'Attach your company logo',
        type: 'file_upload',
        properties: { description: 'PNG or JPG' },
        validations: { required: false },
      },
      {
        ref: 'intro_video',
        title: 'Introduce yourself on video, audio or text',
        type: 'multi_format',
        properties: { description: 'One minute is plenty.' },
        validations: { required: false },
      },
      {
        ref: 'deposit',
        title: 'Pay the setup deposit',
        type: 'payment',
        properties: {
          currency: 'EUR',
          price: { type: 'variable', value: 'price' },
          show_button: true,
          button_text: 'Pay',
        },
        validations: { required: false },
      },
      {
        ref: 'call',
        title: 'Book your onboarding call',
        type: 'calendly',
        properties: { description: 'Pick a slot that suits you.' },
        validations: { required: false },
      },
      {
        ref: 'terms',
        title: 'Do you accept our terms?',
        type: 'legal',
        properties: { description: 'Read them at example.com/terms.' },
        validations: { required: true },
      },
    ],
    logic: [
      {
        type: 'field',
        ref: 'recommend',
        actions: [
          {
            action: 'add',
            details: { target: { type: 'variable', value: 'score' }, value: { type: 'constant', value: 1 } },
            condition: {
              op: 'greater_equal_than',
              vars: [
                { type: 'field', value: 'recommend' },
                { type: 'constant', value: 9 },
              ],
            },
          },
        ],
      },
    ],
  };
}
