import { useState } from 'preact/hooks';
import { ProblemView } from './problem.view';
import { localInputValue, type ReplayWindow, replayWindowOf } from './replay-window.mapper';
import { useTexts } from './texts.context';

interface Props {
  replaying: boolean;
  /** What the API said when it refused. */
  problem?: unknown;
  onReplay: (window: ReplayWindow) => void;
}

// Sends again every failed delivery of the webhook created in a window (the
// API's redeliver-failed, an extension): for a receiver that was down for a
// while, in one request rather than a Replay per delivery. The window starts
// a day back unless changed; an empty end means now.
export function ReplayFailedView({ replaying, problem, onReplay }: Props) {
  const texts = useTexts();
  const { t } = texts;
  const [since, setSince] = useState(() => localInputValue(new Date(Date.now() - 24 * 60 * 60 * 1000)));
  const [until, setUntil] = useState('');
  const [mistake, setMistake] = useState<string>();
  return (
    <section class="replay-failed" aria-labelledby="replay-failed-title">
      <h2 id="replay-failed-title">{t('replay.heading')}</h2>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const window = replayWindowOf(since, until, texts);
          setMistake(window.ok ? undefined : window.message);
          if (window.ok) onReplay(window.body);
        }}
      >
        <div class="window">
          <div class="field">
            <label for="replay-since">{t('replay.since')}</label>
            <input
              id="replay-since"
              type="datetime-local"
              value={since}
              onInput={(event) => setSince(event.currentTarget.value)}
              {...(mistake ? { 'aria-invalid': true, 'aria-describedby': 'replay-problem' } : {})}
            />
          </div>
          <div class="field">
            <label for="replay-until">{t('replay.until')}</label>
            <input
              id="replay-until"
              type="datetime-local"
              value={until}
              onInput={(event) => setUntil(event.currentTarget.value)}
            />
          </div>
        </div>
        {mistake && (
          <p id="replay-problem" class="field-problem">
            {mistake}
          </p>
        )}
        {problem !== undefined && <ProblemView error={problem} />}
        <button type="submit" disabled={replaying}>
          {replaying ? t('item.replaying') : t('replay.submit')}
        </button>
      </form>
    </section>
  );
}
