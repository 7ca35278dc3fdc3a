// Containers start, migrate and stop within a test: give them time.
jest.setTimeout(300_000);
