export interface ReceivedMail {
    to: string;
    subject: string;
    raw: string;
}
/** A real SMTP server on a free local port that keeps what it receives. */
export declare function startSmtpSink(port?: number): Promise<{
    url: string;
    port: number;
    received: ReceivedMail[];
    close(): Promise<void>;
}>;
