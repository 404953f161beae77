import { pino, type Logger } from 'pino';

export type Log = Pick<Logger, 'info' | 'warn' | 'error' | 'debug' | 'child'>;

/** Structured JSON logs (pino). LOG_LEVEL sets the level; tests default to 'silent'. */
export function createLogger(): Logger {
  const level = process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info');
  return pino({
    level,
    base: { service: 'portal' },
    redact: {
      paths: ['req.headers.authorization', 'req.headers.requestverificationtoken', '*.password'],
      remove: true,
    },
    serializers: { err: pino.stdSerializers.err },
  });
}
