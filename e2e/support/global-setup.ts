import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSmtpSink } from '../../apps/api/test/support/smtp-sink.js';
import { E2E_AUTH_SECRET, E2E_BASE_URL, E2E_PORT, MAIL_READER_URL, SIM_FAIL_PATTERN, SMTP_SINK_PORT } from './stack.js';

/** Starts a real SMTP sink (with a small HTTP reader for the tests) and the built portal pointed at it. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const smtp = await startSmtpSink(SMTP_SINK_PORT);
  const mails = smtp.received;

  const reader = createServer((request, response) => {
    const to = new URL(request.url ?? '/', MAIL_READER_URL).searchParams.get('to');
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(mails.filter((mail) => !to || mail.to === to)));
  });
  const readerPort = Number(new URL(MAIL_READER_URL).port);
  await new Promise<void>((resolve) => reader.listen(readerPort, '127.0.0.1', resolve));

  const portal = spawn('node', ['apps/api/dist/main.js'], {
    env: {
      ...process.env,
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: E2E_BASE_URL,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'kumo-e2e-')),
      DATABASE_URL: '',
      SMTP_URL: `smtp://127.0.0.1:${SMTP_SINK_PORT}`,
      AUTH_RATE_LIMIT: '1000',
      // Many sign-ups to one test domain in a minute: the mail caps are proven by the API tests.
      MAIL_RATE_PER_MINUTE: '10000',
      MAIL_RATE_PER_DOMAIN_PER_MINUTE: '10000',
      AUTH_SECRET: E2E_AUTH_SECRET,
      LOG_LEVEL: 'warn',
      // The simulated cloud runs an hour-long deployment in a second; clusters named 'Failing…' fail their stack.
      CLOUD_DRIVER: 'simulated',
      SIM_TIME_SCALE: '3600',
      // At 3,600 times real time an hour idle passes in a second: clusters made by the API get auto-stop off, and the
      // specs that deploy through the create form (which saves its choice) turn it off there but the auto-stop spec.
      AUTO_STOP_DEFAULT_MINUTES: 'off',
      SIM_FAIL_PATTERN: SIM_FAIL_PATTERN,
      // Webhook endpoints may be the tests' own receivers on 127.0.0.1, over http://.
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitUntilReady(`${E2E_BASE_URL}/readyz`, portal);

  return async () => {
    portal.kill('SIGTERM');
    await new Promise((resolve) => portal.once('exit', resolve));
    await new Promise<void>((resolve) => reader.close(() => resolve()));
    await smtp.close();
  };
}

/** Up to three minutes: a first start initialises the embedded PostgreSQL, slow on a busy machine. */
async function waitUntilReady(url: string, portal: ReturnType<typeof spawn>): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (portal.exitCode !== null) throw new Error(`the portal exited with code ${portal.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  // Not left running behind the failed setup.
  portal.kill('SIGTERM');
  throw new Error(`the portal did not become ready at ${url}`);
}
