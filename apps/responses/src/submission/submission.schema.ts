// The submission schema lives in @formline/contracts, where the gateway's API
// document reads it too.
export {
  answerInputSchema,
  answerTypes,
  partialSubmissionSchema,
  submissionSchema,
  type AnswerInput,
  type AnswerType,
  type Submission,
} from '@formline/contracts';
