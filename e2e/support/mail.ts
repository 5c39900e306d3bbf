import { MAIL_READER_URL } from './stack.js';

/** Waits for the OTP mailed to `email` (the newest one after `after` mails) and returns it. */
export async function waitForOtp(email: string, after = 0): Promise<string> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const mails = (await (await fetch(`${MAIL_READER_URL}/messages?to=${encodeURIComponent(email)}`)).json()) as { raw: string }[];
    if (mails.length > after) {
      const raw = mails.at(-1)!.raw.replace(/=\r?\n/g, '');
      // The text part shows the OTP alone on an indented line.
      const otp = raw.match(/^ {4}(\d{6})\s*$/m)?.[1];
      if (otp) return otp;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no OTP reached ${email}`);
}

export async function mailCount(email: string): Promise<number> {
  const mails = (await (await fetch(`${MAIL_READER_URL}/messages?to=${encodeURIComponent(email)}`)).json()) as unknown[];
  return mails.length;
}

/** The raw mail with quoted-printable soft line breaks and escapes (=3D for '=') undone. */
function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Waits for a mail to `email` (the newest one after `after` mails) holding a link that matches `pattern`, and returns the link. */
export async function waitForLink(email: string, pattern: RegExp, after = 0): Promise<string> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const mails = (await (await fetch(`${MAIL_READER_URL}/messages?to=${encodeURIComponent(email)}`)).json()) as { raw: string }[];
    for (const mail of mails.slice(after).reverse()) {
      const links = decodeQuotedPrintable(mail.raw).match(/https?:\/\/[^\s"'<>]+/g) ?? [];
      const link = links.find((candidate) => pattern.test(candidate));
      if (link) return link;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no mail to ${email} with a link matching ${pattern}`);
}
