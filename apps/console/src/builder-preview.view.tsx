import type { PreviewAddress } from './builder-preview.mapper';

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
  const page = 'framed' in address ? address.framed : address.elsewhere;
  return (
    <section class="preview" aria-labelledby="builder-preview">
      <h2 id="builder-preview">Preview</h2>
      {'framed' in address ? (
        <p class="hint">
          The saved form, as respondents see it; it loads again after each save. Answers given here are not
          recorded.
        </p>
      ) : (
        <p class="hint">
          This form's page is served on its region's address, {address.regionOrigin}, where the console can
          preview it: open the console there, or the page itself.
        </p>
      )}
      <p>
        <a href={page} target="_blank" rel="noopener noreferrer">
          Open the form's page<span class="visually-hidden"> (new tab)</span>
        </a>
      </p>
      {'framed' in address && (
        <iframe
          key={version}
          src={address.framed}
          title="Preview of the saved form"
          sandbox="allow-scripts"
        />
      )}
    </section>
  );
}
