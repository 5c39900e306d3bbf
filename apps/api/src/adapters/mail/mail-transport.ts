import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Where mail leaves the portal: an SMTP server, or the dev mailbox when none is configured. */
export interface MailTransport {
  readonly kind: 'smtp' | 'dev-mailbox';
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export function createSmtpTransport(smtpUrl: string): MailTransport {
  // Plain smtp:// without credentials must work for local mail sinks, so TLS is opportunistic.
  const transporter = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async send(mail) {
      await transporter.sendMail(mail);
    },
    close: () => transporter.close(),
  };
}

/** Keeps mail in the outbox (readable at /dev/mailbox) and logs one line, never the body: it may hold an OTP. */
export function createDevMailboxTransport(logger: FastifyBaseLogger, publicUrl: string): MailTransport {
  return {
    kind: 'dev-mailbox',
    async send(mail) {
      logger.info(`dev mailbox: "${mail.subject}" to ${mail.to}; read it at ${publicUrl}/dev/mailbox`);
    },
    close: () => undefined,
  };
}
