import { pino } from 'pino';

/** One logger for requests and jobs; credentials and tokens never reach it. */
export function createLogger(level: string) {
  return pino({
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers.jwt_token',
        'res.headers.refresh_token',
        'otp',
        'refresh_token',
      ],
      censor: '[redacted]',
    },
  });
}
