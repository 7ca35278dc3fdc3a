import { render } from 'preact';
import { ApiClient } from './api.client';
import { ConsoleApp, type ConsoleServices } from './console.app';
import { SessionStore } from './session.store';
import { SignInFlow } from './sign-in.flow';
import { TextsClient } from './texts.client';
import type { ConsoleLanguage } from './console.language';

// Each language's texts file, by code: written in by the build (bundle.mjs).
declare const CONSOLE_TEXT_FILES: Partial<Record<ConsoleLanguage, string>>;

// The bundle's entry: the console started in its page, its services made
// once here (no module-level state elsewhere), talking to its own origin.
const api: ApiClient = new ApiClient(
  (input, init) => fetch(input, init),
  // Read at each request, when signIn exists.
  () => signIn.token(),
);
const signIn: SignInFlow = new SignInFlow(api, new SessionStore(sessionStorage), location.origin);
const services: ConsoleServices = {
  api,
  signIn,
  location,
  history,
  texts: new TextsClient((input, init) => fetch(input, init), CONSOLE_TEXT_FILES),
  // The browser's language first (its own setting), then the others it accepts.
  languages: [navigator.language, ...navigator.languages],
  document,
};
const root = document.getElementById('console');
if (root) {
  root.textContent = '';
  render(<ConsoleApp services={services} />, root);
}
