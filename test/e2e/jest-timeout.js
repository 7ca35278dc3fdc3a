// End-to-end tests start real processes and servers: give them time. Longer
// than the harness's own wait for apps to answer ready (90 s), so a slow
// start on a busy machine fails with its reason rather than a bare timeout.
jest.setTimeout(150_000);
