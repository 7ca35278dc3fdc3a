import { ApiError, errorInWords } from './api.client';
import { useTexts } from './texts.context';

// A failure, said in words (the API's description and code, and what was
// wrong with each input), announced to screen readers as it appears.
export function ProblemView({ error }: { error: unknown }) {
  const texts = useTexts();
  const details = error instanceof ApiError ? error.details : [];
  return (
    <div class="problem" role="alert">
      <p>{errorInWords(error, texts)}</p>
      {details.length > 0 && (
        <ul>
          {details.map((detail) => (
            <li key={detail}>{detail}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
