// End-to-end tests start real processes and servers: give them time.
jest.setTimeout(60_000);
