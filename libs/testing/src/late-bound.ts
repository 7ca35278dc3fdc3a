// A stand-in for an object that a describe block's beforeAll makes: a spec
// takes it at the top of the block (`const { regions, receiver } = use...()`)
// and uses it in its tests and hooks, where every property and method is the
// real object's. Before the object exists, using it throws and says why.
export function lateBound<T extends object>(what: string, current: () => T | undefined): T {
  const target = (key: PropertyKey): T | undefined => {
    const value = current();
    // Probes for promises and matchers (await, Jest's printer) see nothing yet.
    if (value === undefined && typeof key !== 'symbol' && key !== 'then' && key !== 'asymmetricMatch')
      throw new Error(`${what} is made in beforeAll: use it in tests and hooks, not in the describe body`);
    return value;
  };
  return new Proxy({} as T, {
    get(_, key) {
      const real = target(key);
      if (real === undefined) return undefined;
      const value: unknown = Reflect.get(real, key, real);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(real) : value;
    },
    set(_, key, value) {
      const real = target(key);
      return real !== undefined && Reflect.set(real, key, value, real);
    },
    has(_, key) {
      const real = target(key);
      return real !== undefined && Reflect.has(real, key);
    },
    ownKeys() {
      const real = current();
      return real ? Reflect.ownKeys(real) : [];
    },
    getOwnPropertyDescriptor(_, key) {
      const real = current();
      const descriptor = real && Reflect.getOwnPropertyDescriptor(real, key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}
