// The form the data-scale stage fills: questions of the common answer types
// (text with words, email, choice, number, yes/no, phone), three hidden
// fields, and a welcome screen that shows the number of submissions (the
// respondent page counts them on every view). Its stored responses take
// about 1.4 KB of payload each, as a customer survey's do.

export const planChoices = ['Free', 'Team', 'Business', 'Enterprise'];

export function scaleFormDefinition(title: string) {
  const choices = (labels: string[]) => labels.map((label) => ({ ref: label.toLowerCase(), label }));
  return {
    title,
    language: 'en',
    fields: [
      { ref: 'name', title: 'What is your name?', type: 'short_text', validations: { required: true } },
      { ref: 'email', title: 'Your email address?', type: 'email', validations: { required: true } },
      {
        ref: 'plan',
        title: 'Which plan are you on?',
        type: 'multiple_choice',
        properties: { choices: choices(planChoices) },
      },
      { ref: 'rating', title: 'How would you rate us?', type: 'rating', properties: { steps: 5 } },
      { ref: 'recommend', title: 'Would you recommend us?', type: 'yes_no' },
      // Answered by about half of the respondents: the `answered_fields` filter's field.
      { ref: 'phone', title: 'A phone number we may call?', type: 'phone_number' },
      { ref: 'feedback', title: 'Anything else you want to tell us?', type: 'long_text' },
    ],
    hidden: ['source', 'campaign', 'customer_id'],
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
    settings: { language: 'en', is_public: true, show_number_of_submissions: true },
  };
}

// A submission answering every question: the stored row it makes is the
// template of the seeded ones (the seed varies its values, never its shape).
export function templateSubmission() {
  const field = (ref: string) => ({ field: { ref } });
  return {
    hidden: { source: 'newsletter', campaign: 'spring-launch', customer_id: 'c-000001' },
    answers: [
      { ...field('name'), type: 'text', text: 'Ada Lovelace' },
      { ...field('email'), type: 'email', email: 'ada.lovelace.1@example.com' },
      { ...field('plan'), type: 'choice', choice: { label: planChoices[0] } },
      { ...field('rating'), type: 'number', number: 4 },
      { ...field('recommend'), type: 'boolean', boolean: true },
      { ...field('phone'), type: 'phone_number', phone_number: '+15550100001' },
      { ...field('feedback'), type: 'text', text: 'quick setup and clear reports' },
    ],
  };
}
