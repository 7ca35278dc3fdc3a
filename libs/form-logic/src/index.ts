// The form's logic, one implementation for the responses service (which
// replays it to check and store a submission) and the respondent's page (whose
// script is bundled from this library, so it must stay free of Node and zod).
export * from './answer';
export * from './blocks';
export * from './conditions';
export * from './respondent-path';
export * from './answer-formats';
export * from './answer-rules';
export * from './respondent-page-data';
