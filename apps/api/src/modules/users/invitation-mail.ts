import { PRODUCT, ROLE_LABELS, type InvitableRole } from '@kumo/contract';
import type { MailMessage } from '../mail/index.js';
import { escapeHtml } from '../../lib/html.js';

export function invitationMail(input: {
  to: string;
  name: string;
  inviterName: string;
  ownerEmail: string;
  role: InvitableRole;
  link: string;
  validDays: number;
}): MailMessage {
  const role = ROLE_LABELS[input.role];
  const subject = `${input.inviterName} invited you to ${PRODUCT.shortName}`;
  const text = [
    `Hello ${input.name},`,
    '',
    `${input.inviterName} invited you to join the ${PRODUCT.name} account of ${input.ownerEmail} as ${role}.`,
    '',
    `Accept the invitation: ${input.link}`,
    '',
    `The link works once and expires in ${input.validDays} days.`,
    '',
    `— ${PRODUCT.vendor}`,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937">
<p>Hello ${escapeHtml(input.name)},</p>
<p>${escapeHtml(input.inviterName)} invited you to join the ${escapeHtml(PRODUCT.name)} account of ${escapeHtml(input.ownerEmail)} as <strong>${role}</strong>.</p>
<p><a href="${escapeHtml(input.link)}" style="display:inline-block;background:#4263eb;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">Accept the invitation</a></p>
<p style="color:#6b7280">The link works once and expires in ${input.validDays} days.</p>
<p>— ${escapeHtml(PRODUCT.vendor)}</p>
</body></html>`;
  return { to: input.to, subject, text, html };
}
