// Partial responses from the respondent's page: the answers confirmed so far,
// sent to the form's region before the final submit, under the respondent's
// progress key (the final submission names it too, and completes that same
// response). When: at once when the respondent confirms the form's milestone
// block (Typeform's partial submit point), and, while the form keeps
// `autosave_progress` on (its default), a few seconds after the last block
// confirmed, and when the page is hidden or left. One save at a time; a save
// identical to the last one sent is not sent again.

export interface PartialBody {
  progress_key: string;
  landed_at: string;
  hidden: Record<string, string>;
  answers: unknown[];
}

export interface ProgressSender {
  /** A block was confirmed (the respondent moved on from it). */
  confirmed(ref: string): void;
  /** The page is being hidden or left: send what waits now. */
  flush(): void;
  /** The final submission is on its way: nothing more is sent. */
  stop(): void;
}

export interface ProgressSenderOptions {
  /** The form's partial submissions address (its region's). */
  url: string;
  settings: { autosave_progress?: boolean; milestones?: Array<{ field_ref: string }> };
  /** The body of a save, built when it is sent. */
  body: () => PartialBody;
  /** How long autosave waits after a confirmation, so a quick respondent sends once. */
  autosaveDelayMs?: number;
  /** Sends one save; answers when it is done (whatever the outcome). */
  post?: (url: string, body: string) => Promise<unknown>;
}

const defaultPost = async (url: string, body: string): Promise<unknown> => {
  // keepalive: a save sent as the page closes still arrives.
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    keepalive: true,
  });
  if (!response.ok) throw new Error(`partial save answered ${response.status}`);
  return response;
};

export function progressSender(options: ProgressSenderOptions): ProgressSender {
  const milestone = options.settings.milestones?.[0]?.field_ref;
  const autosave = options.settings.autosave_progress !== false;
  const post = options.post ?? defaultPost;
  const delay = options.autosaveDelayMs ?? 3000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let sending = false;
  let again = false;
  let stopped = false;
  let lastSent: string | undefined;

  const send = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (stopped) return;
    if (sending) {
      again = true;
      return;
    }
    const body = JSON.stringify(options.body());
    if (body === lastSent) return;
    sending = true;
    lastSent = body;
    void post(options.url, body)
      // A save that failed is only progress: the next one, or the final
      // submission, carries the same answers and more.
      .catch(() => {
        lastSent = undefined;
      })
      .finally(() => {
        sending = false;
        if (again) {
          again = false;
          send();
        }
      });
  };

  return {
    confirmed(ref) {
      if (stopped) return;
      if (ref === milestone) return send();
      if (!autosave) return;
      clearTimeout(timer);
      timer = setTimeout(send, delay);
    },
    flush() {
      if (timer !== undefined) send();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
