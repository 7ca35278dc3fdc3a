import { useState } from 'preact/hooks';
import { ProblemView } from './problem.view';

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
      <h1>Formline console</h1>
      <p>Sign in with your Formline account to see your workspaces and forms.</p>
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      {signOutProblem !== undefined && (
        <>
          <p>The server could not be told to end the sign-in:</p>
          <ProblemView error={signOutProblem} />
        </>
      )}
      {failure !== undefined && <ProblemView error={failure} />}
      <button type="button" class="primary" onClick={signIn} disabled={busy}>
        {busy ? 'Opening the sign-in page…' : 'Sign in'}
      </button>
    </main>
  );
}
