import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { SqlExecutor } from '../db/client.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import type { JobDefinition, JobQueue } from './job-queue.js';
import { startWorker, type Worker } from './worker.js';

export interface JobRunner {
  /** Sends jobs; usable as soon as startJobQueue resolves, before any worker runs. */
  queue: JobQueue;
  /** Starts taking jobs: call once the services the handlers use exist and the queue is bound. */
  startWorkers(): void;
  /** Lets running jobs finish (up to 10 s), then stops pg-boss. */
  stop(): Promise<void>;
}

/**
 * pg-boss on the portal's own PostgreSQL, through the same pool as requests: its schema, every queue and every
 * schedule are made here (inside the start-up lock), and no job is taken until startWorkers().
 */
export async function startJobQueue(jobsSql: SqlExecutor, definitions: JobDefinition[], logger: FastifyBaseLogger): Promise<JobRunner> {
  const boss = new PgBoss({ db: jobsSql, schema: 'pgboss', supervise: true, schedule: true });
  // pg-boss's own timers (maintenance, schedules) report failures here; a database outage is a warning, not a crash.
  boss.on('error', (error) => {
    if (isDatabaseUnavailable(error)) logger.warn({ err: error }, 'job system cannot reach the database');
    else logger.error({ err: error }, 'job system error');
  });
  await boss.start();
  for (const definition of definitions) {
    await boss.createQueue(definition.queue, {
      name: definition.queue,
      retryLimit: definition.retryLimit,
      retryDelay: definition.retryDelaySeconds,
      retryBackoff: definition.retryLimit > 0,
    });
    if (definition.schedule) await boss.schedule(definition.queue, definition.schedule, {}, { tz: 'UTC' });
  }

  const queue: JobQueue = {
    async send(name, data, options) {
      await boss.send(name, data, {
        ...(options?.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
        ...(options?.priority ? { priority: options.priority } : {}),
      });
    },
  };
  const workers: Worker[] = [];
  return {
    queue,
    startWorkers() {
      if (workers.length > 0) return;
      // One worker per concurrent job: each fetches and settles its own job, so one failure retries only it.
      for (const definition of definitions) {
        for (let index = 0; index < Math.max(1, definition.concurrency ?? 1); index++) workers.push(startWorker(boss, definition, logger));
      }
    },
    async stop() {
      await Promise.all(workers.map((worker) => worker.stop(10_000)));
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}
