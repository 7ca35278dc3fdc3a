// A warning or an error that Nest itself logs while an app starts is a
// mistake in how the app is put together (an enhancer registered too late, a
// route Nest cannot serve as declared), and Nest goes on regardless: the app
// starts, answers, and only its log says that something is not applied. The
// e2e harness fails a spec whose apps say one (startTestRegions), so the next
// such line is caught where it first appears rather than read in a log.

// The contexts Nest's own loggers log under: the names given to
// `new Logger(...)` in @nestjs/common, core, microservices, platform-fastify
// and testing (the unit spec checks the list against their sources, so an
// upgrade that adds a logger adds it here). Our own loggers use other names.
export const nestLoggerContexts: ReadonlySet<string> = new Set([
  'ClientKafka',
  'ClientNats',
  'ClientProxy',
  'ClientTCP',
  'ConfigurableModuleBuilder',
  'ContextUtils',
  'CrossOriginProtection',
  'DeepHashedModuleOpaqueKeyFactory',
  'ExceptionFilter',
  'ExceptionHandler',
  'ExceptionsHandler',
  'FastifyAdapter',
  'FileTypeValidator',
  'InjectorLogger',
  'InstanceLoader',
  'InstanceWrapper',
  'InstrumentLogger',
  'LazyModuleLoader',
  'LegacyRouteConverter',
  'MiddlewareModule',
  'NestApplication',
  'NestApplicationContext',
  'NestFactory',
  'NestMicroservice',
  'PackageLoader',
  'ReplContext',
  'RouterExceptionFilters',
  'RouterExplorer',
  'RouterResponseController',
  'RoutesResolver',
  'RpcExceptionsHandler',
  'Server',
  'ServerKafka',
  'StreamableFile',
]);

const complaintLevels = new Set(['warn', 'error', 'fatal']);
// Most lines are neither: they are passed over without being parsed.
const mayComplain = /"level":"(warn|error|fatal)"/;

export interface NestComplaint {
  /** When the app logged it (its `time`), ms since the epoch. */
  at: number;
  /** `WARN [context] message`. */
  text: string;
}

// The complaint in one line an app printed (a JSON line, as the harness runs
// the apps: LOG_FORMAT=json); undefined for any other line.
export function nestComplaint(line: string): NestComplaint | undefined {
  if (!mayComplain.test(line)) return undefined;
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { level, context, msg, time } = entry as Record<string, unknown>;
  if (typeof level !== 'string' || !complaintLevels.has(level)) return undefined;
  if (typeof context !== 'string' || !nestLoggerContexts.has(context)) return undefined;
  const at = typeof time === 'string' ? Date.parse(time) : Number.NaN;
  return {
    at: Number.isNaN(at) ? Date.now() : at,
    text: `${level.toUpperCase()} [${context}] ${typeof msg === 'string' ? msg : ''}`,
  };
}

// Nest's complaints in the lines of a stack's apps, by app label (`us media`),
// logged before the apps were all started: what they say afterwards (a spec
// stopping a server on purpose, an app it restarts) is the spec's to judge.
// An app writes its lines in batches (up to a second apart,
// libs/ops log-destination.ts), so one that is ready may not have shown its
// start's lines yet: the list is whole only once the apps have exited (they
// write what they hold as they exit).
export class StartupComplaints {
  private readonly found: { label: string; complaint: NestComplaint }[] = [];
  private startedAt = Number.POSITIVE_INFINITY;

  note(label: string, line: string): void {
    const complaint = nestComplaint(line);
    if (complaint) this.found.push({ label, complaint });
  }

  /** The apps are started: lines they log later are not their start's. */
  started(at = Date.now()): void {
    this.startedAt = at;
  }

  /** What was found so far, one `label: complaint` an entry. */
  list(): string[] {
    return this.found
      .filter(({ complaint }) => complaint.at <= this.startedAt)
      .map(({ label, complaint }) => `${label}: ${complaint.text}`);
  }
}
