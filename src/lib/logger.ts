import pino, { type Logger } from 'pino';

export type { Logger };

/** JSON logs; pretty when a person is watching a terminal. Secrets are redacted by path. */
export function createLogger(opts: { level: string; pretty?: boolean; name?: string }): Logger {
  const pretty = opts.pretty ?? process.stdout.isTTY;
  return pino({
    level: opts.level,
    name: opts.name,
    redact: {
      paths: [
        'req.headers.authorization', 'headers.authorization', 'password', '*.password',
        'secret', '*.secret', 'refreshToken', '*.refreshToken', 'accessToken', '*.accessToken',
      ],
      censor: '[redacted]',
    },
    transport: pretty ? { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } : undefined,
  });
}
