import type { JobQueue } from './job-queue.js';

/** A queue handle services can hold before the workers start; sends before then fail and are swept up later. */
export function lateBoundQueue(): JobQueue & { bind(queue: JobQueue): void } {
  let target: JobQueue | undefined;
  return {
    bind(queue) {
      target = queue;
    },
    async send(name, data, options) {
      if (!target) throw new Error('job queue not started yet');
      await target.send(name, data, options);
    },
  };
}
