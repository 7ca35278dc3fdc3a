import { isIP, type LookupFunction } from 'node:net';

// A socket look-up that answers only the addresses already checked: the
// connection goes where the check looked, and a name that resolves elsewhere
// by the time the socket opens (DNS rebinding) is never asked again.
export function pinnedLookup(addresses: readonly string[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    const candidates = addresses
      .map((address) => ({ address, family: isIP(address) }))
      .filter((entry) => family === 0 || entry.family === family);
    if (candidates.length === 0) {
      const error: NodeJS.ErrnoException = new Error('no checked address of that family');
      error.code = 'ENOTFOUND';
      callback(error, '', 0);
      return;
    }
    if (options.all) (callback as (...args: unknown[]) => void)(null, candidates);
    else callback(null, candidates[0].address, candidates[0].family);
  };
}
