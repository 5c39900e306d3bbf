import { OTP, PRODUCT } from '@kumo/contract';
import type { MailMessage } from '../mail/index.js';
import { escapeHtml } from '../../lib/html.js';

/** The OTP e-mail, with a text and an HTML part. */
export function otpMail(to: string, otp: string, purpose: 'LOGIN' | 'SIGN_UP', name: string | null): MailMessage {
  const greeting = name ? `Hello ${name},` : 'Hello,';
  const action = purpose === 'SIGN_UP' ? 'finish signing up for' : 'sign in to';
  // The subject is logged by transports, so it never carries the OTP.
  const subject = `Your ${PRODUCT.shortName} one-time password`;
  const text = [
    greeting,
    '',
    `Use this one-time password to ${action} ${PRODUCT.name}:`,
    '',
    `    ${otp}`,
    '',
    `It is valid for ${OTP.validMinutes} minutes and can be used once.`,
    'If you did not ask for it, you can ignore this e-mail: nobody can sign in without it.',
    '',
    `— ${PRODUCT.vendor}`,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937">
<p>${escapeHtml(greeting)}</p>
<p>Use this one-time password to ${action} ${escapeHtml(PRODUCT.name)}:</p>
<p style="font-size:28px;font-weight:bold;letter-spacing:6px">${otp}</p>
<p>It is valid for ${OTP.validMinutes} minutes and can be used once.</p>
<p style="color:#6b7280">If you did not ask for it, you can ignore this e-mail: nobody can sign in without it.</p>
<p>— ${escapeHtml(PRODUCT.vendor)}</p>
</body></html>`;
  return { to, subject, text, html };
}
