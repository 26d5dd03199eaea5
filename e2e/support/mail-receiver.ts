import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  /** The message with quoted-printable soft breaks and escapes undone. */
  text: string;
}

function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** A real SMTP server on loopback, in the test process, keeping every message it receives. */
export class MailReceiver {
  readonly messages: ReceivedMail[] = [];
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        this.messages.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), text: decodeQuotedPrintable(raw) });
        callback();
      });
    },
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.server.address() as AddressInfo;
    return `smtp://127.0.0.1:${port}`;
  }

  /** The link of the latest e-mail to `to` whose link starts with `prefix`, waiting for it to arrive. */
  async linkTo(to: string, prefix: string, timeoutMs = 10_000): Promise<string> {
    const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const pattern = new RegExp(`${escaped}[A-Za-z0-9_\\-]+`);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mail = this.messages.filter((m) => m.to.includes(to.toLowerCase()) && pattern.test(m.text)).at(-1);
      const link = mail?.text.match(pattern)?.[0];
      if (link) return link;
      if (Date.now() > deadline) throw new Error(`no e-mail to ${to} with a link starting ${prefix}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  count(to: string): number {
    return this.messages.filter((m) => m.to.includes(to.toLowerCase())).length;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
