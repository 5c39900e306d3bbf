/** What public/first-paint.js leaves when it sent the first screen's reads: the token they carry, and their answers. */
interface EarlyReads {
  token: string;
  startedAt: number;
  answers: Record<string, Promise<Response> | undefined>;
}

declare global {
  interface Window {
    kumoEarlyReads?: EarlyReads;
  }
}

/** An answer waits this long for the screen that asked for it; after that the screen's own read is fresher. */
const KEPT_MS = 10_000;

/**
 * The early answer to a GET of `url` sent with `token`, if the page's head script started one and it is still fresh;
 * once only. The head script (public/first-paint.js) sends the first screen's reads while the code is downloading;
 * left to the screen, each would leave only once every module had arrived and the page had rendered.
 */
export function takeEarlyRead(url: string, token: string | null): Promise<Response> | undefined {
  const reads = window.kumoEarlyReads;
  const response = reads?.answers[url];
  if (!reads || !response) return undefined;
  delete reads.answers[url];
  return reads.token === token && Date.now() - reads.startedAt <= KEPT_MS ? response : undefined;
}
