import type { Scope } from '@formline/contracts';
import { ANONYMOUS_BUDGET, type AnonymousBudgetName } from '../rate-limit/anonymous-budget.decorator';
import { UPLOAD_BUDGET } from '../rate-limit/upload-budget.decorator';
import { OPTIONAL_SCOPE } from './optional-scope.decorator';
import { OWNER_CREDENTIALS } from './owner-credentials.decorator';
import { PUBLIC_ROUTE } from './public.decorator';
import { REQUIRED_SCOPE } from './required-scope.decorator';

// How a route is reached: a bearer token holding a scope, the owner's email
// and password, or nothing at all.
export type RouteAccess =
  | { kind: 'scope'; scope: Scope }
  | {
      kind: 'optional-scope';
      scope: Scope;
      anonymousBudget?: AnonymousBudgetName;
      /** The route stores an upload: the caller's upload budgets are reserved too. */
      uploads?: true;
    }
  | { kind: 'owner' }
  | { kind: 'public' };

// Decorators are set once, at class definition: the guard asks for every
// request, so each handler's answer is read from its metadata once.
const declaredByHandler = new WeakMap<object, readonly RouteAccess[]>();

// Every access kind the handler declares; exactly one is valid.
export function routeAccessOf(handler: object): readonly RouteAccess[] {
  let declared = declaredByHandler.get(handler);
  if (!declared) {
    declared = readRouteAccess(handler);
    declaredByHandler.set(handler, declared);
  }
  return declared;
}

function readRouteAccess(handler: object): RouteAccess[] {
  const declared: RouteAccess[] = [];
  const scope = Reflect.getMetadata(REQUIRED_SCOPE, handler) as Scope | undefined;
  if (scope) declared.push({ kind: 'scope', scope });
  const optionalScope = Reflect.getMetadata(OPTIONAL_SCOPE, handler) as Scope | undefined;
  if (optionalScope) {
    const anonymousBudget = Reflect.getMetadata(ANONYMOUS_BUDGET, handler) as AnonymousBudgetName | undefined;
    declared.push({
      kind: 'optional-scope',
      scope: optionalScope,
      ...(anonymousBudget && { anonymousBudget }),
      ...(Reflect.getMetadata(UPLOAD_BUDGET, handler) === true && { uploads: true as const }),
    });
  }
  if (Reflect.getMetadata(OWNER_CREDENTIALS, handler)) declared.push({ kind: 'owner' });
  if (Reflect.getMetadata(PUBLIC_ROUTE, handler)) declared.push({ kind: 'public' });
  return declared;
}
