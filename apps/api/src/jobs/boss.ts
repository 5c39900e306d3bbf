import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { SqlExecutor } from '../db/client.js';
import type { JobDefinition, JobQueue } from './job-queue.js';

/** pg-boss on the portal's own PostgreSQL, through the same pool as requests: each job runs on exactly one worker. */
export async function startJobs(jobsSql: SqlExecutor, definitions: JobDefinition[], logger: FastifyBaseLogger) {
  const boss = new PgBoss({ db: jobsSql, schema: 'pgboss', supervise: true, schedule: true });
  boss.on('error', (error) => logger.error({ err: error }, 'job system error'));
  await boss.start();

  for (const definition of definitions) {
    await boss.createQueue(definition.queue, {
      name: definition.queue,
      retryLimit: definition.retryLimit,
      retryDelay: definition.retryDelaySeconds,
      retryBackoff: definition.retryLimit > 0,
    });
    // One pg-boss worker per concurrent job: each fetches and settles its own job, so one failure retries only it.
    for (let worker = 0; worker < Math.max(1, definition.concurrency ?? 1); worker++) {
      await boss.work(definition.queue, { pollingIntervalSeconds: 1 }, async (jobs) => {
        for (const job of jobs) {
          const log = logger.child({ job: definition.queue, jobId: job.id });
          try {
            await definition.handler(job.data as Record<string, unknown>);
          } catch (error) {
            log.warn({ err: error }, 'job failed; it will be retried if retries remain');
            throw error;
          }
        }
      });
    }
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
  return {
    queue,
    stop: () => boss.stop({ graceful: true, wait: true, timeout: 10_000 }),
  };
}
