import type { Scope } from '@formline/contracts';

// The sign-in and consent page of the authorization endpoint: plain HTML, no
// script, one form that posts back to the same address.

const scopeDescriptions: Record<Scope, string> = {
  'accounts:read': 'See your account information',
  'forms:read': 'See your forms',
  'forms:write': 'Create, change and delete your forms',
  'images:read': 'See your images',
  'images:write': 'Upload and delete your images',
  'themes:read': 'See your themes',
  'themes:write': 'Create, change and delete your themes',
  'responses:read': 'See the responses to your forms',
  'responses:write': 'Delete responses to your forms',
  'webhooks:read': 'See your webhooks',
  'webhooks:write': 'Create, change and delete your webhooks',
  'workspaces:read': 'See your workspaces',
  'workspaces:write': 'Create, change and delete your workspaces',
  offline: 'Keep this access when you are not using the application',
};

export interface ConsentView {
  applicationName: string;
  scopes: Scope[];
  hidden: Record<string, string>;
  csrfToken: string;
  email?: string;
  message?: string;
}

export function consentPage(view: ConsentView): string {
  const hidden = Object.entries({ ...view.hidden, csrf_token: view.csrfToken })
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join('\n      ');
  const scopes = view.scopes
    .map((scope) => `<li>${escape(scopeDescriptions[scope])} <code>${escape(scope)}</code></li>`)
    .join('\n        ');
  const message = view.message ? `<p class="error" role="alert">${escape(view.message)}</p>` : '';
  return layout(
    `Authorize ${view.applicationName}`,
    `<h1>${escape(view.applicationName)} wants to access your Formline account</h1>
    ${message}
    <form method="post" action="authorize">
      ${hidden}
      <p>It asks to:</p>
      <ul>
        ${scopes}
      </ul>
      <label>Email <input type="email" name="email" autocomplete="username" value="${escape(view.email ?? '')}" required></label>
      <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
      <p>
        <button type="submit" name="decision" value="allow">Sign in and allow</button>
        <button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
      </p>
    </form>`,
  );
}

export function errorPage(description: string): string {
  return layout(
    'Authorization failed',
    `<h1>This authorization request cannot go on</h1>
    <p class="error" role="alert">${escape(description)}</p>
    <p>Go back to the application and try again.</p>`,
  );
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escape(title)}</title>
    <style>
      body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto; padding: 0 1rem; }
      label { display: block; margin: 0.75rem 0; }
      input[type=email], input[type=password] { display: block; width: 100%; padding: 0.4rem; }
      .error { color: #b00020; }
      button { padding: 0.5rem 1rem; margin-right: 0.5rem; }
    </style>
  </head>
  <body>
    ${body}
  </body>
</html>
`;
}

export function escape(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
