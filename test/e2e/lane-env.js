// Before each e2e spec file, in its Jest worker: when the global setup started
// several lanes (tools/test/test-profile.cjs), this worker's lane's servers,
// data folder, database templates and slice of the port range become the spec's
// environment, which testInfra() and freePort() read.
const lanes = process.env.TEST_LANES ? JSON.parse(process.env.TEST_LANES) : undefined;
if (lanes) {
  const worker = Number(process.env.JEST_WORKER_ID ?? '1');
  Object.assign(process.env, lanes[(worker - 1) % lanes.length]);
}
