/** Just enough MIME reading for tests: the Subject header and the decoded text part. */
export declare function simpleParser(raw: string): {
    subject: string;
    text: string;
};
/** The six-digit OTP in a raw message. */
export declare function otpIn(raw: string): string | undefined;
