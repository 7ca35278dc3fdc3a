// Integration specs run one component in-process against the real servers:
// seconds each, but a busy shared machine may stretch a connection or a copy
// of a database well past Jest's 5 s default.
jest.setTimeout(30_000);
