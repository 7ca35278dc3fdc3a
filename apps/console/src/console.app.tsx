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

export interface ConsoleServices {
  api: ApiClient;
  signIn: SignInFlow;
  /** Where the browser is, and how to go elsewhere (the sign-in page). */
  location: Pick<Location, 'search' | 'assign' | 'hash'>;
  history: Pick<History, 'replaceState'>;
}

type Phase = { kind: 'starting' } | { kind: 'signed-out'; message?: string } | { kind: 'signed-in' };

// The console's state: starting (a sign-in may be coming back), signed out,
// or signed in, when the screen the address's fragment names (the Forms
// screen, a form's builder, results, insights, webhooks, a webhook's
// delivery log) shows under the header.
export function ConsoleApp({ services }: { services: ConsoleServices }) {
  const { api, signIn } = services;
  const [phase, setPhase] = useState<Phase>({ kind: 'starting' });
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
    signIn
      .finish(services.location.search)
      .then((outcome) => {
        if (outcome.kind === 'signed-in') return settle({ kind: 'signed-in' });
        if (outcome.kind === 'refused') return settle({ kind: 'signed-out', message: outcome.message });
        setPhase(signIn.token() ? { kind: 'signed-in' } : { kind: 'signed-out' });
      })
      .catch((error: unknown) => settle({ kind: 'signed-out', message: errorInWords(error) }));
  }, [services, signIn]);

  const signInEnded = (error: ApiError) => {
    signIn.forget();
    setProfile(undefined);
    setPhase({ kind: 'signed-out', message: `Your sign-in has ended: ${errorInWords(error)}` });
  };

  useEffect(() => {
    if (phase.kind !== 'signed-in') return;
    const abort = new AbortController();
    api
      .get<AccountProfile>('/me', {}, abort.signal)
      .then(setProfile)
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.endsSignIn) signInEnded(error);
      });
    return () => abort.abort();
  }, [api, phase.kind]);

  const signOut = () => {
    setSigningOut(true);
    signIn
      .signOut()
      .then(() => setSignOutProblem(undefined))
      .catch((error: unknown) => setSignOutProblem(error))
      .finally(() => {
        setSigningOut(false);
        setProfile(undefined);
        setPhase({ kind: 'signed-out', message: 'You are signed out.' });
      });
  };

  if (phase.kind === 'starting') {
    return (
      <main id="main">
        <p class="starting" role="status">
          Loading the console…
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
