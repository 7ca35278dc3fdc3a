import { useState } from 'preact/hooks';
import { ProblemView } from './problem.view';
import { useTexts } from './texts.context';

interface Props {
  /** Why the console is signed out, when it did not sign out on request. */
  message?: string;
  /** Signing out ended the sign-in here, but the server could not be told. */
  signOutProblem?: unknown;
  onSignIn: () => Promise<void>;
}

// The first screen when signed out: what the console is, and one button to
// the region's own sign-in page (the password is typed there, never here).
export function SignInScreen({ message, signOutProblem, onSignIn }: Props) {
  const { t } = useTexts();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>();
  const signIn = () => {
    setBusy(true);
    onSignIn().catch((error: unknown) => {
      setFailure(error);
      setBusy(false);
    });
  };
  return (
    <main id="main" class="sign-in">
      <h1>{t('console.title')}</h1>
      <p>{t('signIn.intro')}</p>
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      {signOutProblem !== undefined && (
        <>
          <p>{t('signIn.signOutProblem')}</p>
          <ProblemView error={signOutProblem} />
        </>
      )}
      {failure !== undefined && <ProblemView error={failure} />}
      <button type="button" class="primary" onClick={signIn} disabled={busy}>
        {busy ? t('signIn.opening') : t('signIn.button')}
      </button>
    </main>
  );
}
