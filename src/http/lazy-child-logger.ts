import type { FastifyBaseLogger } from 'fastify';

type Bindings = Record<string, unknown>;
type ChildLoggerOptions = any; // pino's and Fastify's option types differ; passed through untouched

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LevelAware = FastifyBaseLogger & { isLevelEnabled?: (l: string) => boolean };

/**
 * Fastify makes a child logger (bound to the request id) for every request. With pino that
 * means serialising the bindings and setting up redaction each time, mostly for requests that
 * never log. This child defers that until a line at an enabled level is actually written.
 */
class LazyChildLogger {
  private real?: FastifyBaseLogger;
  constructor(
    private readonly parent: LevelAware,
    private readonly bindings: Bindings,
    private readonly opts: ChildLoggerOptions,
  ) {}

  private child$(): FastifyBaseLogger {
    this.real ??= this.parent.child(this.bindings, this.opts);
    return this.real;
  }
  private write(level: Level, args: unknown[]): void {
    if (this.parent.isLevelEnabled?.(level) === false) return;
    (this.child$()[level] as (...a: unknown[]) => void)(...args);
  }

  get level(): string {
    return this.real?.level ?? this.parent.level;
  }
  set level(l: string) {
    this.child$().level = l;
  }
  isLevelEnabled(l: string): boolean {
    return this.parent.isLevelEnabled?.(l) ?? true;
  }
  fatal(...a: unknown[]): void {
    this.write('fatal', a);
  }
  error(...a: unknown[]): void {
    this.write('error', a);
  }
  warn(...a: unknown[]): void {
    this.write('warn', a);
  }
  info(...a: unknown[]): void {
    this.write('info', a);
  }
  debug(...a: unknown[]): void {
    this.write('debug', a);
  }
  trace(...a: unknown[]): void {
    this.write('trace', a);
  }
  silent(): void {
    /* nothing */
  }
  child(bindings: Bindings, opts?: ChildLoggerOptions): FastifyBaseLogger {
    return this.child$().child(bindings, opts);
  }
}

export function lazyChildLoggerFactory(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  opts: ChildLoggerOptions,
): FastifyBaseLogger {
  // A route with its own log level needs a real child: the parent's level would not apply.
  if (opts?.level !== undefined) return logger.child(bindings, opts);
  return new LazyChildLogger(logger as LevelAware, bindings, opts) as unknown as FastifyBaseLogger;
}
