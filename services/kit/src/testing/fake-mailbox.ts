import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  /** The raw message as received (headers and body). */
  raw: string;
  /** The body decoded from its transfer encoding (base64 or quoted-printable; a single-part mail). */
  text: string;
}

/** Undoes quoted-printable: soft line breaks, then `=XX` bytes read as UTF-8. */
function decodeQuotedPrintable(body: string): string {
  const joined = body.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * A real SMTP server on localhost that keeps every message it is given, for tests of what the
 * product mails. `url` is what `SMTP_URL` should say.
 */
export async function startFakeMailbox() {
  const mails: ReceivedMail[] = [];
  /** Each waiter looks for its mail again whenever one arrives; true once it has been answered. */
  const waiters: (() => boolean)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const split = raw.search(/\r?\n\r?\n/);
        const encoding = /^Content-Transfer-Encoding:\s*(\S+)/im.exec(raw.slice(0, split))?.[1]?.toLowerCase();
        const body = raw.slice(split).trim();
        const mail = {
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
          text:
            encoding === 'base64'
              ? Buffer.from(body, 'base64').toString('utf8')
              : encoding === 'quoted-printable'
                ? decodeQuotedPrintable(body)
                : body,
        };
        mails.push(mail);
        for (const waiter of [...waiters]) if (waiter()) waiters.splice(waiters.indexOf(waiter), 1);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** The mails sent to `address` so far. */
    mailsTo: (address: string) => mails.filter((mail) => mail.to.includes(address)),
    /**
     * The `nth` mail (0: the first) to `address`, already received or still to come; with `containing`,
     * the `nth` of those whose text contains it (a recovery link, not the sign-up's confirmation mail).
     */
    waitForMail(
      address: string,
      options: { nth?: number; timeoutMs?: number; containing?: string } = {},
    ): Promise<ReceivedMail> {
      const { nth = 0, timeoutMs = 10_000, containing = '' } = options;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(found), 1);
          reject(new Error(`no mail #${nth + 1} to ${address} within ${timeoutMs} ms`));
        }, timeoutMs);
        const found = () => {
          const mail = mails.filter((received) => received.to.includes(address) && received.text.includes(containing))[
            nth
          ];
          if (mail) {
            clearTimeout(timer);
            resolve(mail);
          }
          return mail !== undefined;
        };
        if (!found()) waiters.push(found);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeMailbox = Awaited<ReturnType<typeof startFakeMailbox>>;
