import { Fragment } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ProblemView } from './problem.view';
import {
  type Answer,
  answerInWords,
  answersById,
  fileNameOf,
  fileUrlOf,
  type Question,
  type ResponseItem,
  responseTypeInWords,
} from './response.format';
import { shortName, submittedInWords } from './response-table.view';

interface Props {
  response: ResponseItem;
  questions: Question[];
  /** The form's hidden fields, by name. */
  hidden: string[];
  closeHref: string;
  /** Fetches a file with the token and hands it to the browser; rejects in the API's words. */
  onDownload: (fileUrl: string, fileName: string) => Promise<void>;
}

const metadataLabels: Array<[string, string]> = [
  ['user_agent', 'User agent'],
  ['platform', 'Platform'],
  ['browser', 'Browser'],
  ['referer', 'Referrer'],
  ['network_id', 'Network id'],
];

// One response whole: every question with its answer (or that it was not
// answered), answers to questions the form no longer has, its hidden fields,
// score and ending, and its metadata. A file answer is downloaded through
// the API's file route (it needs the token, so it is a button, not a link).
export function ResponseDetailView({ response, questions, hidden, closeHref, onDownload }: Props) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [problem, setProblem] = useState<unknown>();
  useEffect(() => heading.current?.focus(), [response.token]);
  const answers = answersById(response);
  const known = new Set(questions.map((question) => question.id));
  const others = [...answers.values()].filter((answer) => !known.has(answer.field?.id ?? ''));
  const hiddenValues = response.hidden ?? {};
  const hiddenNames = [...new Set([...hidden, ...Object.keys(hiddenValues)])];
  const metadata = response.metadata ?? {};
  const download = (url: string, name: string) => {
    setProblem(undefined);
    onDownload(url, name).catch((error: unknown) => setProblem(error));
  };
  const answerCell = (question: Question | undefined, answer: Answer | undefined) => {
    const words = answerInWords(answer, question);
    const url = fileUrlOf(answer);
    if (!answer) return <dd class="unanswered">Not answered</dd>;
    return (
      <dd>
        {words}
        {url && (
          <button type="button" class="inline" onClick={() => download(url, fileNameOf(url))}>
            Download {fileNameOf(url)}
          </button>
        )}
      </dd>
    );
  };

  return (
    <section class="response" aria-labelledby="response-title">
      <h2 id="response-title" tabIndex={-1} ref={heading}>
        Response {shortName(response.token)}
      </h2>
      <p>
        <a href={closeHref}>Close the response</a>
      </p>
      {problem !== undefined && <ProblemView error={problem} />}
      <dl class="facts">
        <dt>State</dt>
        <dd>{responseTypeInWords(response.response_type)}</dd>
        <dt>Submitted</dt>
        <dd>{submittedInWords(response)}</dd>
        <dt>Landed</dt>
        <dd>{new Date(response.landed_at).toLocaleString()}</dd>
        <dt>Token</dt>
        <dd class="answer">{response.token}</dd>
      </dl>
      <h3>Answers</h3>
      <dl class="facts">
        {questions.map((question) => (
          <Fragment key={question.id}>
            <dt>{question.title}</dt>
            {answerCell(question, answers.get(question.id))}
          </Fragment>
        ))}
        {others.map((answer, i) => (
          <Fragment key={`other-${i}`}>
            <dt>{answer.field?.ref ?? answer.field?.id ?? 'A question'} (no longer in the form)</dt>
            {answerCell(undefined, answer)}
          </Fragment>
        ))}
      </dl>
      {hiddenNames.length > 0 && (
        <>
          <h3>Hidden fields</h3>
          <dl class="facts">
            {hiddenNames.map((name) => (
              <Fragment key={name}>
                <dt>{name}</dt>
                <dd>{typeof hiddenValues[name] === 'string' ? hiddenValues[name] : 'None'}</dd>
              </Fragment>
            ))}
          </dl>
        </>
      )}
      <h3>Score and ending</h3>
      <dl class="facts">
        <dt>Score</dt>
        <dd>{response.calculated?.score ?? 0}</dd>
        {(response.variables ?? [])
          .filter((variable) => variable.key !== 'score')
          .map((variable) => (
            <Fragment key={String(variable.key)}>
              <dt>Variable {String(variable.key)}</dt>
              <dd>{plain(variable[String(variable.type)])}</dd>
            </Fragment>
          ))}
        <dt>Ending</dt>
        <dd>{response.ending?.ref ?? 'None reached'}</dd>
      </dl>
      <h3>Metadata</h3>
      <dl class="facts">
        {metadataLabels.map(([key, label]) => (
          <Fragment key={key}>
            <dt>{label}</dt>
            <dd class="answer">
              {typeof metadata[key] === 'string' && metadata[key] !== '' ? metadata[key] : 'None'}
            </dd>
          </Fragment>
        ))}
      </dl>
    </section>
  );
}

// A variable's value (a number, as the API writes them); anything else is not shown.
function plain(value: unknown): string {
  return typeof value === 'number' || typeof value === 'string' ? String(value) : '';
}
