import { render } from 'preact';
import { ApiClient } from './api.client';
import { ConsoleApp, type ConsoleServices } from './console.app';
import { SessionStore } from './session.store';
import { SignInFlow } from './sign-in.flow';

// The bundle's entry: the console started in its page, its services made
// once here (no module-level state elsewhere), talking to its own origin.
const api: ApiClient = new ApiClient(
  (input, init) => fetch(input, init),
  // Read at each request, when signIn exists.
  () => signIn.token(),
);
const signIn: SignInFlow = new SignInFlow(api, new SessionStore(sessionStorage), location.origin);
const services: ConsoleServices = { api, signIn, location, history };
const root = document.getElementById('console');
if (root) {
  root.textContent = '';
  render(<ConsoleApp services={services} />, root);
}
