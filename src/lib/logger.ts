import pino, { type Logger } from 'pino';

export type { Logger };

export type LogFormat = 'auto' | 'json' | 'pretty';

/** Whether a logger with this format writes pretty lines (`auto`: when stdout is a terminal). */
export function isPretty(format: LogFormat = 'auto', stdoutIsTty = process.stdout.isTTY === true): boolean {
  return format === 'pretty' || (format === 'auto' && stdoutIsTty);
}

/**
 * JSON logs; human-readable when a person is watching a terminal (or `format: 'pretty'`).
 * Secrets are redacted by path. `pretty` overrides `format` (tests pass `pretty: false`).
 */
export function createLogger(opts: { level: string; pretty?: boolean; format?: LogFormat; name?: string }): Logger {
  const pretty = opts.pretty ?? isPretty(opts.format);
  return pino({
    level: opts.level,
    name: opts.name,
    redact: {
      paths: [
        'req.headers.authorization',
        'headers.authorization',
        'password',
        '*.password',
        'secret',
        '*.secret',
        'refreshToken',
        '*.refreshToken',
        'accessToken',
        '*.accessToken',
      ],
      censor: '[redacted]',
    },
    transport: pretty
      ? { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } }
      : undefined,
  });
}
