import { SMTPServer } from 'smtp-server';
import { simpleParser } from './mail-parser.js';

export interface ReceivedMail {
  to: string;
  subject: string;
  raw: string;
}

/** A real SMTP server on a free local port that keeps what it receives. */
export async function startSmtpSink(port = 0): Promise<{ url: string; port: number; received: ReceivedMail[]; close(): Promise<void> }> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), subject: simpleParser(raw).subject, raw });
        callback();
      });
    },
  });
  // A sender killed mid-mail (the fault runs kill portals) resets its connection: that mail was never accepted, and
  // the sink goes on for the next sender instead of crashing the run.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `smtp://127.0.0.1:${boundPort}`,
    port: boundPort,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
