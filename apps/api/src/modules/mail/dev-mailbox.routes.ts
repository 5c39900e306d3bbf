import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MailService } from './mail.service.js';
import { escapeHtml } from '../../lib/html.js';

const RECENT = 50;

const mailSchema = z.object({
  id: z.uuid(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  status: z.string(),
  created_at: z.iso.datetime(),
});

/** The dev mailbox: mounted only when no SMTP server is configured, so no real mail is ever shown here. */
export function devMailboxRoutes(mail: MailService) {
  return async function register(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const recent = async () =>
      (await mail.listRecent(RECENT)).map((row) => ({
        id: row.id,
        to: row.toAddress,
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody,
        status: row.status,
        created_at: row.createdAt.toISOString(),
      }));

    app.get(
      '/dev/mailbox.json',
      { schema: { tags: ['Dev mailbox'], summary: 'The latest 50 mails, newest first', response: { 200: z.array(mailSchema) } } },
      recent,
    );

    app.get('/dev/mailbox', { schema: { hide: true } }, async (_request, reply) => {
      const mails = await recent();
      const items = mails
        .map(
          (m) =>
            `<article><header><strong>${escapeHtml(m.subject)}</strong><span>to ${escapeHtml(m.to)} · ${escapeHtml(m.created_at)} · ${escapeHtml(m.status)}</span></header><pre>${escapeHtml(m.text)}</pre></article>`,
        )
        .join('\n');
      reply.type('text/html; charset=utf-8')
        .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dev mailbox | Kumo Cloud</title>
<link rel="stylesheet" href="/dev/mailbox.css"></head><body><h1>Dev mailbox</h1>
<p>Mail the portal sent while no SMTP server is configured, newest first. Reload to see new mail.</p>
${items || '<p class="empty">No mail yet.</p>'}</body></html>`);
    });

    app.get('/dev/mailbox.css', { schema: { hide: true } }, async (_request, reply) => {
      reply.type('text/css').send(`body{font-family:system-ui,sans-serif;max-width:860px;margin:2rem auto;color:#1f2937;padding:0 1rem}
article{border:1px solid #e5e7eb;border-radius:8px;margin:1rem 0;padding:1rem}header{display:flex;flex-direction:column;gap:.25rem}
header span{color:#6b7280;font-size:.875rem}pre{white-space:pre-wrap;background:#f9fafb;padding:.75rem;border-radius:6px}.empty{color:#6b7280}`);
    });
  };
}
