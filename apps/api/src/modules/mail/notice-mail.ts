import { PRODUCT } from '@kumo/contract';
import { escapeHtml } from '../../lib/html.js';
import type { MailMessage } from './mail.service.js';

/** A plain notice to a customer: overdue stops, runway, credit expiry and budget alerts. */
export function noticeMail(to: string, subject: string, lines: string[]): MailMessage {
  const text = ['Hello,', '', ...lines, '', `— ${PRODUCT.vendor}`].join('\n');
  const html = `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937">
<p>Hello,</p>
${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}
<p>— ${escapeHtml(PRODUCT.vendor)}</p>
</body></html>`;
  return { to, subject: `${PRODUCT.name}: ${subject}`, text, html };
}
