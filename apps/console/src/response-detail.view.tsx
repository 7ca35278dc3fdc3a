import { Fragment } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { TextKey } from './console.texts';
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
import { useTexts } from './texts.context';

interface Props {
  response: ResponseItem;
  questions: Question[];
  /** The form's hidden fields, by name. */
  hidden: string[];
  closeHref: string;
  /** Fetches a file with the token and hands it to the browser; rejects in the API's words. */
  onDownload: (fileUrl: string, fileName: string) => Promise<void>;
}

const metadataLabels: Array<[string, TextKey]> = [
  ['user_agent', 'detail.userAgent'],
  ['platform', 'insights.platform'],
  ['browser', 'detail.browser'],
  ['referer', 'detail.referrer'],
  ['network_id', 'detail.networkId'],
];

// One response whole: every question with its answer (or that it was not
// answered), answers to questions the form no longer has, its hidden fields,
// score and ending, and its metadata. A file answer is downloaded through
// the API's file route (it needs the token, so it is a button, not a link).
export function ResponseDetailView({ response, questions, hidden, closeHref, onDownload }: Props) {
  const texts = useTexts();
  const { t } = texts;
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
    const words = answerInWords(answer, question, texts);
    const url = fileUrlOf(answer);
    if (!answer) return <dd class="unanswered">{t('detail.notAnswered')}</dd>;
    return (
      <dd>
        {words}
        {url && (
          <button type="button" class="inline" onClick={() => download(url, fileNameOf(url))}>
            {t('detail.download', { file: fileNameOf(url) })}
          </button>
        )}
      </dd>
    );
  };

  return (
    <section class="response" aria-labelledby="response-title">
      <h2 id="response-title" tabIndex={-1} ref={heading}>
        {t('detail.heading', { name: shortName(response.token) })}
      </h2>
      <p>
        <a href={closeHref}>{t('detail.close')}</a>
      </p>
      {problem !== undefined && <ProblemView error={problem} />}
      <dl class="facts">
        <dt>{t('table.state')}</dt>
        <dd>{responseTypeInWords(response.response_type, texts)}</dd>
        <dt>{t('table.submitted')}</dt>
        <dd>{submittedInWords(response, texts)}</dd>
        <dt>{t('detail.landed')}</dt>
        <dd>{texts.dateTime(response.landed_at)}</dd>
        <dt>{t('detail.token')}</dt>
        <dd class="answer">{response.token}</dd>
      </dl>
      <h3>{t('insights.answers')}</h3>
      <dl class="facts">
        {questions.map((question) => (
          <Fragment key={question.id}>
            <dt>{question.title}</dt>
            {answerCell(question, answers.get(question.id))}
          </Fragment>
        ))}
        {others.map((answer, i) => (
          <Fragment key={`other-${i}`}>
            <dt>
              {t('detail.gone', { question: answer.field?.ref ?? answer.field?.id ?? t('detail.aQuestion') })}
            </dt>
            {answerCell(undefined, answer)}
          </Fragment>
        ))}
      </dl>
      {hiddenNames.length > 0 && (
        <>
          <h3>{t('detail.hidden')}</h3>
          <dl class="facts">
            {hiddenNames.map((name) => (
              <Fragment key={name}>
                <dt>{name}</dt>
                <dd>{typeof hiddenValues[name] === 'string' ? hiddenValues[name] : t('detail.none')}</dd>
              </Fragment>
            ))}
          </dl>
        </>
      )}
      <h3>{t('detail.scoreAndEnding')}</h3>
      <dl class="facts">
        <dt>{t('detail.score')}</dt>
        <dd>{response.calculated?.score ?? 0}</dd>
        {(response.variables ?? [])
          .filter((variable) => variable.key !== 'score')
          .map((variable) => (
            <Fragment key={String(variable.key)}>
              <dt>{t('detail.variable', { name: String(variable.key) })}</dt>
              <dd>{plain(variable[String(variable.type)])}</dd>
            </Fragment>
          ))}
        <dt>{t('detail.ending')}</dt>
        <dd>{response.ending?.ref ?? t('detail.noEnding')}</dd>
      </dl>
      <h3>{t('detail.metadata')}</h3>
      <dl class="facts">
        {metadataLabels.map(([key, label]) => (
          <Fragment key={key}>
            <dt>{t(label)}</dt>
            <dd class="answer">
              {typeof metadata[key] === 'string' && metadata[key] !== '' ? metadata[key] : t('detail.none')}
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
