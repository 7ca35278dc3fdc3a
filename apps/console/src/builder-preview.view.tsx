import type { PreviewAddress } from './builder-preview.mapper';
import { useTexts } from './texts.context';

interface Props {
  address: NonNullable<PreviewAddress>;
  /** The saved version's ETag: a new one loads the page again. */
  version: string;
}

// The real respondent page of the saved form, framed. The page allows framing
// by its own origin only (frame-ancestors 'self'), which is the console's when
// the console is open on the form's region. The frame is sandboxed without
// allow-same-origin: the page runs its script, but as an opaque origin, so it
// cannot read the console's token, storage or document; and its submissions
// are cross-origin requests the API does not allow, so answering the preview
// records nothing.
export function BuilderPreviewView({ address, version }: Props) {
  const { t } = useTexts();
  const page = 'framed' in address ? address.framed : address.elsewhere;
  return (
    <section class="preview" aria-labelledby="builder-preview">
      <h2 id="builder-preview">{t('preview.heading')}</h2>
      {'framed' in address ? (
        <p class="hint">{t('preview.framed')}</p>
      ) : (
        <p class="hint">{t('preview.elsewhere', { origin: address.regionOrigin })}</p>
      )}
      <p>
        <a href={page} target="_blank" rel="noopener noreferrer">
          {t('preview.open')}
          <span class="visually-hidden">{t('preview.newTab')}</span>
        </a>
      </p>
      {'framed' in address && (
        <iframe key={version} src={address.framed} title={t('preview.title')} sandbox="allow-scripts" />
      )}
    </section>
  );
}
