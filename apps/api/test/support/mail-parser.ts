/** Just enough MIME reading for tests: the Subject header and the decoded text part. */
export function simpleParser(raw: string): { subject: string; text: string } {
  const subject = raw.match(/^Subject: (.*)$/im)?.[1]?.trim() ?? '';
  const unfolded = raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return { subject, text: unfolded };
}

/** The six-digit OTP in a raw message. */
export function otpIn(raw: string): string | undefined {
  return simpleParser(raw).text.match(/\b(\d{6})\b/)?.[1];
}
