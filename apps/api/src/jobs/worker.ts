import type PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import type { JobDefinition } from './job-queue.js';

export interface Worker {
  /** Takes no new job; resolves once the running one is settled, or after `timeoutMs`. */
  stop(timeoutMs: number): Promise<void>;
}

const POLL_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;

/** A handler that outlives its job's expiry is given up on: pg-boss retries the job elsewhere. */
function withinSeconds<T>(work: Promise<T>, seconds: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`job did not finish within ${seconds} s`)), seconds * 1000);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * One loop that fetches a job, runs it and settles it, every step awaited. pg-boss's own `work()` settles jobs
 * without awaiting, so a database that goes away mid-job became an unhandled rejection and ended the process;
 * here a failed fetch or settle is logged and retried with a growing pause, and an unsettled job is retried by
 * pg-boss once it expires.
 */
export function startWorker(boss: PgBoss, definition: JobDefinition, logger: FastifyBaseLogger): Worker {
  let running = true;
  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function runOne(): Promise<boolean> {
    const [job] = await boss.fetch<Record<string, unknown>>(definition.queue, { batchSize: 1, priority: true });
    if (!job) return false;
    const log = logger.child({ job: definition.queue, jobId: job.id });
    try {
      await withinSeconds(definition.handler(job.data), (job as { expireInSeconds?: number }).expireInSeconds ?? 15 * 60);
    } catch (error) {
      log.warn({ err: error }, 'job failed; it will be retried if retries remain');
      await boss.fail(definition.queue, job.id, error instanceof Error ? error : { message: String(error) });
      return true;
    }
    await boss.complete(definition.queue, job.id);
    return true;
  }

  const loop = (async () => {
    let failures = 0;
    while (running) {
      try {
        const worked = await runOne();
        if (failures > 0) logger.info({ job: definition.queue }, 'job worker reaches the database again');
        failures = 0;
        if (!worked) await pause(POLL_MS);
      } catch (error) {
        // Said once per outage, not once a second.
        if (failures === 0) {
          if (isDatabaseUnavailable(error)) logger.warn({ err: error, job: definition.queue }, 'job worker cannot reach the database');
          else logger.error({ err: error, job: definition.queue }, 'job worker error');
        }
        failures++;
        await pause(Math.min(MAX_BACKOFF_MS, POLL_MS * 2 ** Math.min(failures, 5)));
      }
    }
  })();

  return {
    async stop(timeoutMs) {
      running = false;
      wake?.();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([loop, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
      clearTimeout(timer);
    },
  };
}
