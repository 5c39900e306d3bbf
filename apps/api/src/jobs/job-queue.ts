/** The port modules use to hand work to the background workers. */
export interface JobQueue {
  send(queue: string, data: Record<string, unknown>, options?: SendOptions): Promise<void>;
}

export interface SendOptions {
  /** Run no earlier than this many seconds from now (a follow-up that looks again later). */
  startAfterSeconds?: number;
  /** Higher runs first among waiting jobs of the queue (OTP mail before other mail). */
  priority?: number;
}

export interface JobDefinition {
  queue: string;
  /** Retried with exponential backoff when the handler throws. */
  retryLimit: number;
  retryDelaySeconds: number;
  handler(data: Record<string, unknown>): Promise<void>;
  /** Cron schedule (UTC) for recurring jobs. */
  schedule?: string;
  /** Jobs of this queue run at the same time on one portal (1 unless told). */
  concurrency?: number;
}
