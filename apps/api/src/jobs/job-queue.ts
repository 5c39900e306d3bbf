/** The port modules use to hand work to the background workers. */
export interface JobQueue {
  send(queue: string, data: Record<string, unknown>): Promise<void>;
}

export interface JobDefinition {
  queue: string;
  /** Retried with exponential backoff when the handler throws. */
  retryLimit: number;
  retryDelaySeconds: number;
  handler(data: Record<string, unknown>): Promise<void>;
  /** Cron schedule (UTC) for recurring jobs. */
  schedule?: string;
}
