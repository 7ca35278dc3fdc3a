import { Injectable, type OnModuleInit } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService } from '@nestjs/core';
import { routeAccessOf } from './route-access';

// Refuses to start a gateway with a route that declares no access, or two:
// a forgotten declaration is found at boot, not by the first caller.
@Injectable()
export class RouteAccessAudit implements OnModuleInit {
  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    const problems = routeAccessProblems(this.discovery.getControllers().map((wrapper) => wrapper.metatype));
    if (problems.length) {
      throw new Error(`Routes without exactly one access declaration:\n  ${problems.join('\n  ')}`);
    }
  }
}

export function routeAccessProblems(controllers: readonly unknown[]): string[] {
  const problems: string[] = [];
  for (const controller of controllers) {
    if (typeof controller !== 'function') continue;
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue; // not a route
      const declared = routeAccessOf(handler);
      if (declared.length !== 1) {
        const kinds = declared.map((access) => access.kind).join(' and ') || 'none';
        problems.push(
          `${controller.name}.${name}: ${kinds} (use @RequiredScope, @ScopeIfAuthenticated, @OwnerCredentials or @Public)`,
        );
      }
    }
  }
  return problems;
}
