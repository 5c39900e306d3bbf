import { SMTPServer } from 'smtp-server';
import { simpleParser } from './mail-parser.js';
/** A real SMTP server on a free local port that keeps what it receives. */
export async function startSmtpSink(port = 0) {
    const received = [];
    const server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        onData(stream, session, callback) {
            const chunks = [];
            stream.on('data', (chunk) => chunks.push(chunk));
            stream.on('end', () => {
                const raw = Buffer.concat(chunks).toString('utf8');
                received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), subject: simpleParser(raw).subject, raw });
                callback();
            });
        },
    });
    await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
    const address = server.server.address();
    const boundPort = typeof address === 'object' && address ? address.port : port;
    return {
        url: `smtp://127.0.0.1:${boundPort}`,
        port: boundPort,
        received,
        close: () => new Promise((resolve) => server.close(() => resolve())),
    };
}
//# sourceMappingURL=smtp-sink.js.map