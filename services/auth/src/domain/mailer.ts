import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { AuthDeps } from '../deps';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

const transports = new Map<string, Transporter>();

/**
 * Sends a mail through `SMTP_URL`. Without it, outside production, the mail is written to a file under
 * `DATA_DIR/mail` that only its owner can read, and the log says where, so a developer can follow the
 * link; in production it is only reported as not sent. A link never goes into a log: it is a way into
 * the account.
 */
export async function sendMail({ config, logger }: Pick<AuthDeps, 'config' | 'logger'>, mail: Mail): Promise<void> {
  if (!config.SMTP_URL) {
    if (config.NODE_ENV === 'production') logger.warn({ subject: mail.subject }, 'SMTP_URL is not set: mail not sent');
    else
      logger.info({ file: await keepMail(config.DATA_DIR, mail) }, 'SMTP_URL is not set: the mail is kept in a file');
    return;
  }
  let transport = transports.get(config.SMTP_URL);
  if (!transport) {
    transport = nodemailer.createTransport(config.SMTP_URL);
    transports.set(config.SMTP_URL, transport);
  }
  await transport.sendMail({ from: config.MAIL_FROM, ...mail });
}

async function keepMail(dataDir: string, mail: Mail): Promise<string> {
  const folder = path.resolve(dataDir, 'mail');
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const file = path.join(folder, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.txt`);
  await writeFile(file, `To: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}\n`, { mode: 0o600 });
  return file;
}
