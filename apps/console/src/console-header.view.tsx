import { useTexts } from './texts.context';

interface Props {
  /** Who is signed in, once known. */
  email?: string;
  signingOut: boolean;
  onSignOut: () => void;
}

// The bar above every signed-in screen: a way past it for keyboards, the
// console's name, who is signed in, and the way out.
export function ConsoleHeaderView({ email, signingOut, onSignOut }: Props) {
  const { t } = useTexts();
  return (
    <header class="bar">
      <a class="skip" href="#main">
        {t('header.skip')}
      </a>
      <span class="brand">{t('console.title')}</span>
      <span class="who">{email ? t('header.signedInAs', { email }) : ''}</span>
      <button type="button" onClick={onSignOut} disabled={signingOut}>
        {signingOut ? t('header.signingOut') : t('header.signOut')}
      </button>
    </header>
  );
}
