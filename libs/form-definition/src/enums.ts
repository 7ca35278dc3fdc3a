// Every closed set of values the form model names, in one place, so the
// schemas, the tests and the documentation enumerate the same lists.

export const languages = [
  'en',
  'es',
  'ca',
  'fr',
  'de',
  'ru',
  'it',
  'da',
  'pt',
  'ch',
  'zh',
  'nl',
  'no',
  'uk',
  'ja',
  'ko',
  'hr',
  'fi',
  'sv',
  'pl',
  'el',
  'hu',
  'tr',
  'cs',
  'et',
  'di',
  'ar',
  'he',
  'lt',
] as const;

export const attachmentTypes = ['image', 'video'] as const;
export const videoScales = [0.4, 0.6, 0.8, 1] as const;
export const layoutTypes = ['split', 'wallpaper', 'float', 'stack'] as const;
export const layoutPlacements = ['left', 'right'] as const;

export const thankYouScreenTypes = ['thankyou_screen', 'url_redirect'] as const;
export const buttonModes = ['reload', 'default_redirect', 'redirect'] as const;

export const logicJumpTypes = ['field', 'hidden'] as const;
export const logicActions = ['jump', 'add', 'subtract', 'multiply', 'divide', 'set'] as const;
export const jumpTargetTypes = ['field', 'thankyou', 'outcome'] as const;
export const calculationValueTypes = ['constant', 'variable', 'evaluation'] as const;
export const conditionOperators = [
  'begins_with',
  'ends_with',
  'contains',
  'not_contains',
  'lower_than',
  'lower_equal_than',
  'greater_than',
  'greater_equal_than',
  'is',
  'is_not',
  'equal',
  'not_equal',
  'always',
  'on',
  'not_on',
  'earlier_than',
  'earlier_than_or_on',
  'later_than',
  'later_than_or_on',
] as const;
export const conditionVarTypes = ['field', 'hidden', 'variable', 'constant', 'choice'] as const;

export const progressBars = ['percentage', 'proportion'] as const;
export const milestoneStatuses = ['active', 'inactive'] as const;
export const milestoneReasons = ['wrong_position', 'incompatible_feature'] as const;
export const typingEmulationSpeeds = ['slow', 'medium', 'fast'] as const;

// The form's variables (each starts at 0); logic calculates on these.
export const variableNames = ['score', 'price'] as const;

// Question types, after Typeform's field model.
export const fieldTypes = [
  'short_text',
  'long_text',
  'email',
  'number',
  'multiple_choice',
  'dropdown',
  'yes_no',
  'rating',
  'opinion_scale',
  'date',
  'phone_number',
  'website',
  'legal',
  'statement',
  'group',
  'picture_choice',
  'nps',
  'ranking',
  'matrix',
  'contact_info',
  'address',
  'file_upload',
  'payment',
  'calendly',
  'multi_format',
] as const;
export type FieldType = (typeof fieldTypes)[number];

// Blocks answered on one screen through their own inner fields (the rows of a
// matrix, the lines of an address), each inner field answered on its own, as
// Typeform's responses list them. A group's inner fields are blocks of their own.
export const compositeFieldTypes = ['matrix', 'contact_info', 'address'] as const;
export type CompositeFieldType = (typeof compositeFieldTypes)[number];

// The lines of a contact_info and of an address block (Typeform's subfield keys).
export const contactInfoSubfields = ['first_name', 'last_name', 'email', 'phone_number', 'company'] as const;
export const addressSubfields = [
  'address_line1',
  'address_line2',
  'city',
  'state',
  'zip',
  'country',
] as const;

// How a multi_format (video and audio) question is answered: a recording
// (an upload, as a file_upload's) or typed text.
export const multiFormatAnswerFormats = ['video', 'audio', 'text'] as const;

// Typeform's form types (`type` of a form).
export const formTypes = [
  'quiz',
  'classification',
  'score',
  'branching',
  'classification_branching',
  'score_branching',
] as const;

// Currencies a payment block may charge in (Typeform's list).
export const paymentCurrencies = [
  'AUD',
  'BRL',
  'CAD',
  'CHF',
  'DKK',
  'EUR',
  'GBP',
  'MXN',
  'NOK',
  'SEK',
  'USD',
] as const;

export const ratingShapes = [
  'star',
  'heart',
  'user',
  'up',
  'crown',
  'cat',
  'dog',
  'circle',
  'flag',
  'droplet',
  'tick',
  'lightbulb',
  'trophy',
  'cloud',
  'thunderbolt',
  'pencil',
  'skull',
] as const;
export const dateStructures = ['MMDDYYYY', 'DDMMYYYY', 'YYYYMMDD'] as const;
export const dateSeparators = ['/', '-', '.'] as const;

// Video platforms whose URLs an attachment may use.
export const videoHosts = [
  'youtube.com',
  'www.youtube.com',
  'youtu.be',
  'vimeo.com',
  'player.vimeo.com',
] as const;
