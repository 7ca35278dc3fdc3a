import type { AccountProfile } from '@formline/contracts';
import { useEffect, useState } from 'preact/hooks';
import { type ApiClient, ApiError, errorInWords } from './api.client';
import { consolePath } from './console-client.settings';
import { BuilderScreen } from './builder.screen';
import { ConsoleHeaderView } from './console-header.view';
import { type ConsoleRoute, hashOf, routeFromHash } from './console.route';
import { DeliveryLogScreen } from './delivery-log.screen';
import { FormsScreen } from './forms.screen';
import { InsightsScreen } from './insights.screen';
import { ResultsScreen } from './results.screen';
import { WebhooksScreen } from './webhooks.screen';
import { SignInScreen } from './sign-in.screen';
import type { SignInFlow } from './sign-in.flow';
import { type ConsoleTexts, englishTexts } from './console.texts';
import { accountLanguage, browserLanguage } from './console.language';
import type { TextsClient } from './texts.client';
import { TextsContext } from './texts.context';

export interface ConsoleServices {
  api: ApiClient;
  signIn: SignInFlow;
  /** Where the browser is, and how to go elsewhere (the sign-in page). */
  location: Pick<Location, 'search' | 'assign' | 'hash'>;
  history: Pick<History, 'replaceState'>;
  texts: TextsClient;
  /** The browser's languages, most wanted first (`navigator.languages`). */
  languages: readonly string[];
  /** Where the language shows: `<html lang dir>` and the tab's title. */
  document: { documentElement: Pick<HTMLElement, 'lang' | 'dir'>; title: string };
}

type Phase = { kind: 'starting' } | { kind: 'signed-out'; message?: string } | { kind: 'signed-in' };

// The console's state: starting (a sign-in may be coming back), signed out,
// or signed in, when the screen the address's fragment names (the Forms
// screen, a form's builder, results, insights, webhooks, a webhook's
// delivery log) shows under the header. Its words are in the account's
// language once `/me` has said it (the screens wait for it), the browser's
// before that (console.language.ts).
export function ConsoleApp({ services }: { services: ConsoleServices }) {
  const { api, signIn } = services;
  const [phase, setPhase] = useState<Phase>({ kind: 'starting' });
  const [texts, setTexts] = useState<ConsoleTexts>(englishTexts);
  const [languageSettled, setLanguageSettled] = useState(false);
  const [profile, setProfile] = useState<AccountProfile>();
  const [signingOut, setSigningOut] = useState(false);
  const [signOutProblem, setSignOutProblem] = useState<unknown>();
  const [route, setRoute] = useState<ConsoleRoute>(() => routeFromHash(services.location.hash));

  // Links change the fragment; Back and Forward too: the screen follows it.
  useEffect(() => {
    const follow = () => setRoute(routeFromHash(services.location.hash));
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, [services]);
  const go = (next: ConsoleRoute) => {
    services.location.hash = hashOf(next);
  };

  useEffect(() => {
    const settle = (next: Phase) => {
      // The code and state leave the address bar (and the tab's history) at once.
      services.history.replaceState(null, '', consolePath);
      setPhase(next);
    };
    const browserTexts = services.texts.load(browserLanguage(services.languages, services.texts.available()));
    signIn
      .finish(services.location.search)
      .then(async (outcome) => {
        const words = await browserTexts;
        setTexts(words);
        if (outcome.kind === 'signed-in') return settle({ kind: 'signed-in' });
        if (outcome.kind === 'refused')
          return settle({ kind: 'signed-out', message: words.t(outcome.key, outcome.params) });
        setPhase(signIn.token() ? { kind: 'signed-in' } : { kind: 'signed-out' });
      })
      .catch(async (error: unknown) => {
        const words = await browserTexts;
        setTexts(words);
        settle({ kind: 'signed-out', message: errorInWords(error, words) });
      });
  }, [services, signIn]);

  const signInEnded = (error: ApiError) => {
    signIn.forget();
    setProfile(undefined);
    setPhase({
      kind: 'signed-out',
      message: texts.t('signedOut.ended', { why: errorInWords(error, texts) }),
    });
  };

  useEffect(() => {
    if (phase.kind !== 'signed-in') return;
    const abort = new AbortController();
    api
      .get<AccountProfile>('/me', {}, abort.signal)
      .then(async (me) => {
        const chosen = await services.texts.load(accountLanguage(me.language, services.texts.available()));
        if (abort.signal.aborted) return;
        setTexts(chosen);
        setProfile(me);
        setLanguageSettled(true);
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.endsSignIn) return signInEnded(error);
        // The screens say what fails for them; the language stays the browser's.
        if (!abort.signal.aborted) setLanguageSettled(true);
      });
    return () => abort.abort();
  }, [api, phase.kind]);

  useEffect(() => {
    const root = services.document.documentElement;
    root.lang = texts.tag;
    root.dir = texts.dir;
    services.document.title = texts.t('console.title');
  }, [services, texts]);

  const signOut = () => {
    setSigningOut(true);
    signIn
      .signOut()
      .then(() => setSignOutProblem(undefined))
      .catch((error: unknown) => setSignOutProblem(error))
      .finally(() => {
        setSigningOut(false);
        setProfile(undefined);
        setLanguageSettled(false);
        setPhase({ kind: 'signed-out', message: texts.t('signedOut.done') });
      });
  };

  return <TextsContext.Provider value={texts}>{screen()}</TextsContext.Provider>;

  function screen() {
    if (phase.kind === 'starting' || (phase.kind === 'signed-in' && !languageSettled)) {
      return (
        <main id="main">
          <p class="starting" role="status">
            {texts.t('console.loading')}
          </p>
        </main>
      );
    }
    if (phase.kind === 'signed-out') {
      return (
        <SignInScreen
          message={phase.message}
          signOutProblem={signOutProblem}
          onSignIn={async () => services.location.assign(await signIn.start())}
        />
      );
    }
    return (
      <>
        <ConsoleHeaderView email={profile?.email} signingOut={signingOut} onSignOut={signOut} />
        {route.screen === 'forms' && <FormsScreen api={api} onSignInEnded={signInEnded} />}
        {route.screen === 'webhooks' && (
          <WebhooksScreen key={route.formId} api={api} formId={route.formId} onSignInEnded={signInEnded} />
        )}
        {route.screen === 'results' && (
          <ResultsScreen
            key={route.formId}
            api={api}
            formId={route.formId}
            view={route.view}
            go={go}
            onSignInEnded={signInEnded}
          />
        )}
        {route.screen === 'insights' && (
          <InsightsScreen key={route.formId} api={api} formId={route.formId} onSignInEnded={signInEnded} />
        )}
        {route.screen === 'builder' && (
          <BuilderScreen key={route.formId} api={api} formId={route.formId} onSignInEnded={signInEnded} />
        )}
        {route.screen === 'deliveries' && (
          <DeliveryLogScreen
            key={`${route.formId}/${route.tag}`}
            api={api}
            formId={route.formId}
            tag={route.tag}
            page={route.page}
            go={go}
            onSignInEnded={signInEnded}
          />
        )}
      </>
    );
  }
}
