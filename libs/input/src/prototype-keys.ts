// Keys that reach an object's prototype when used as a property name or a
// JSON Pointer segment. Caller JSON is data: these are refused wherever a
// caller names a key or a path, whatever the depth.
export const prototypeKeys: readonly string[] = ['__proto__', 'constructor', 'prototype'];

export function isPrototypeKey(key: string): boolean {
  return prototypeKeys.includes(key);
}
