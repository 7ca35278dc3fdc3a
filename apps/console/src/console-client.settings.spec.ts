import { consoleClient, consoleRedirectUri as registeredRedirectUri } from '@formline/contracts';
import { consoleClientId, consolePath, consoleRedirectUri, consoleScopes } from './console-client.settings';

// The console cannot import libs/contracts (its schemas would fill the
// bundle), so it repeats the client the global service registers: they agree.
describe("the console's OAuth client", () => {
  it('is the one the deployment registers, at the redirect URI registered for each base address', () => {
    expect(consoleClientId).toBe(consoleClient.clientId);
    expect(consolePath).toBe(consoleClient.path);
    expect(consoleScopes).toEqual(consoleClient.scopes);
    expect(consoleRedirectUri('https://api.example')).toBe(registeredRedirectUri('https://api.example'));
  });
});
