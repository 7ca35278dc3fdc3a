// The demo form every seeded account gets: a small customer-feedback form that
// shows the shape of the form resource.
export function demoFormDefinition(title: string) {
  return {
    title,
    language: 'en',
    fields: [
      {
        ref: 'name',
        title: 'What is your name?',
        type: 'short_text',
        properties: {},
        validations: { required: true },
      },
      {
        ref: 'rating',
        title: 'How would you rate us, {{field:name}}?',
        type: 'rating',
        properties: { steps: 5, shape: 'star' },
        validations: { required: false },
      },
    ],
    hidden: ['source'],
    variables: { score: 0, price: 0 },
    welcome_screens: [
      {
        ref: 'welcome',
        title: 'Tell us how we did',
        properties: { show_button: true, button_text: 'Start' },
      },
    ],
    thankyou_screens: [
      {
        ref: 'thanks',
        title: 'Thank you!',
        type: 'thankyou_screen',
        properties: { show_button: false, share_icons: false },
      },
    ],
    logic: [],
    settings: {
      language: 'en',
      is_public: true,
      autosave_progress: true,
      progress_bar: 'proportion',
      show_progress_bar: true,
      show_service_branding: true,
      show_time_to_complete: true,
      show_question_number: true,
      show_key_hint_on_choices: true,
      meta: { allow_indexing: false },
    },
  };
}
