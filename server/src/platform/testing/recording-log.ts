import type { Log } from '../logging/logger.js';

export interface LogEntry {
  level: 'info' | 'warn' | 'error' | 'debug';
  fields: Record<string, unknown>;
  msg: string;
}

/** A logger that keeps what was logged, so tests can assert on it. */
export function recordingLog(entries: LogEntry[] = []): Log & { entries: LogEntry[] } {
  const at =
    (level: LogEntry['level']) =>
    (fields: unknown, msg?: string): void => {
      if (typeof fields === 'string') entries.push({ level, fields: {}, msg: fields });
      else entries.push({ level, fields: (fields ?? {}) as Record<string, unknown>, msg: msg ?? '' });
    };
  const log = {
    entries,
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    debug: at('debug'),
    child: () => log,
  };
  return log as unknown as Log & { entries: LogEntry[] };
}
