import { OTP, PRODUCT, type ActionDetail } from '@kumo/contract';
import { escapeHtml } from '../../lib/html.js';
import type { MailMessage } from '../mail/index.js';

/**
 * One approver's OTP for a sensitive admin action. It says exactly what was asked (the frozen payload in words)
 * so the approver checks it before reading the OTP out to the requester.
 */
export function adminApprovalMail(
  to: string,
  otp: string,
  what: { action: string; details: ActionDetail[]; requestedBy: string; customer: string },
): MailMessage {
  // The subject is logged by transports, so it never carries the OTP.
  const subject = `Approve: ${what.action} for ${what.customer}`;
  const text = [
    'Hello,',
    '',
    `${what.requestedBy} asked for this action in ${PRODUCT.name} and needs a second person's approval:`,
    '',
    `    ${what.action} — customer ${what.customer}`,
    ...what.details.map((line) => `    ${line.label}: ${line.value}`),
    '',
    'If it is right, approve it by reading this one-time password out to them:',
    '',
    `    ${otp}`,
    '',
    `It is valid for ${OTP.validMinutes} minutes and can be used once. If the request is not what you expect, do not share it.`,
    '',
    `— ${PRODUCT.vendor}`,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937">
<p>Hello,</p>
<p>${escapeHtml(what.requestedBy)} asked for this action in ${escapeHtml(PRODUCT.name)} and needs a second person's approval:</p>
<p><b>${escapeHtml(what.action)}</b> — customer ${escapeHtml(what.customer)}</p>
<ul>${what.details.map((line) => `<li>${escapeHtml(`${line.label}: ${line.value}`)}</li>`).join('')}</ul>
<p>If it is right, approve it by reading this one-time password out to them:</p>
<p style="font-size:28px;font-weight:bold;letter-spacing:6px">${otp}</p>
<p>It is valid for ${OTP.validMinutes} minutes and can be used once. If the request is not what you expect, do not share it.</p>
<p>— ${escapeHtml(PRODUCT.vendor)}</p>
</body></html>`;
  return { to, subject, text, html };
}

/** Tells the customer's owner about new service rates before they take effect. */
export function rateChangeMail(to: string, effectiveFrom: Date, lines: string[]): MailMessage {
  const day = effectiveFrom.toISOString().slice(0, 10);
  const subject = `Your ${PRODUCT.name} service rates change on ${day}`;
  const text = [
    'Hello,',
    '',
    `From ${day} (UTC) these service rates apply to your ${PRODUCT.name} account:`,
    '',
    ...lines.map((line) => `    ${line}`),
    '',
    'Usage before that date is charged at the previous rates. Your subscription details show the rates in force.',
    '',
    `— ${PRODUCT.vendor}`,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937">
<p>Hello,</p>
<p>From <b>${escapeHtml(day)}</b> (UTC) these service rates apply to your ${escapeHtml(PRODUCT.name)} account:</p>
<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>
<p>Usage before that date is charged at the previous rates. Your subscription details show the rates in force.</p>
<p>— ${escapeHtml(PRODUCT.vendor)}</p>
</body></html>`;
  return { to, subject, text, html };
}
