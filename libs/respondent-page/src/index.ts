// The respondent's page as the server writes it: the HTML document with its
// style (colours derived from the form's theme) and the page's texts in the
// form's language, the form's own messages applied. The page's script is
// apps/respondent-web, bundled for browsers; the gateway serves both.
export * from './page-document';
export * from './page-texts';
export * from './form-messages.texts';
