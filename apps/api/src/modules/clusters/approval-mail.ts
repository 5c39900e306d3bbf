import { OTP, PRODUCT } from '@kumo/contract';
import { escapeHtml } from '../../lib/html.js';
import type { MailMessage } from '../mail/index.js';

/** The approver's OTP for a cluster deletion: says what will be deleted and who asked. */
export function approvalOtpMail(to: string, otp: string, cluster: string, subscription: string, requestedBy: string): MailMessage {
  // The subject is logged by transports, so it never carries the OTP.
  const subject = `Approve the deletion of cluster ${cluster}`;
  const text = [
    'Hello,',
    '',
    `${requestedBy} asked to delete the cluster ${cluster} of the subscription ${subscription} in ${PRODUCT.name}.`,
    'As the account owner you approve it by giving them this one-time password:',
    '',
    `    ${otp}`,
    '',
    `It is valid for ${OTP.validMinutes} minutes and can be used once. A deleted cluster cannot be restored.`,
    'If you do not want the cluster deleted, do not share it.',
    '',
    `— ${PRODUCT.vendor}`,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937">
<p>Hello,</p>
<p>${escapeHtml(requestedBy)} asked to delete the cluster <b>${escapeHtml(cluster)}</b> of the subscription <b>${escapeHtml(subscription)}</b> in ${escapeHtml(PRODUCT.name)}.</p>
<p>As the account owner you approve it by giving them this one-time password:</p>
<p style="font-size:28px;font-weight:bold;letter-spacing:6px">${otp}</p>
<p>It is valid for ${OTP.validMinutes} minutes and can be used once. A deleted cluster cannot be restored.</p>
<p style="color:#6b7280">If you do not want the cluster deleted, do not share it.</p>
<p>— ${escapeHtml(PRODUCT.vendor)}</p>
</body></html>`;
  return { to, subject, text, html };
}
