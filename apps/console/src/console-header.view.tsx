interface Props {
  /** Who is signed in, once known. */
  email?: string;
  signingOut: boolean;
  onSignOut: () => void;
}

// The bar above every signed-in screen: a way past it for keyboards, the
// console's name, who is signed in, and the way out.
export function ConsoleHeaderView({ email, signingOut, onSignOut }: Props) {
  return (
    <header class="bar">
      <a class="skip" href="#main">
        Skip to the content
      </a>
      <span class="brand">Formline console</span>
      <span class="who">{email ? `Signed in as ${email}` : ''}</span>
      <button type="button" onClick={onSignOut} disabled={signingOut}>
        {signingOut ? 'Signing out…' : 'Sign out'}
      </button>
    </header>
  );
}
