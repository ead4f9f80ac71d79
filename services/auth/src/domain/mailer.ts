import nodemailer, { type Transporter } from 'nodemailer';
import type { AuthDeps } from '../deps';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

const transports = new Map<string, Transporter>();

/**
 * Sends a mail through `SMTP_URL`. Without it, outside production, the mail is written to the log
 * so a developer can follow the link; in production it is only reported as not sent (a link in a
 * log would be a way into the account).
 */
export async function sendMail({ config, logger }: Pick<AuthDeps, 'config' | 'logger'>, mail: Mail): Promise<void> {
  if (!config.SMTP_URL) {
    if (config.NODE_ENV === 'production') logger.warn({ subject: mail.subject }, 'SMTP_URL is not set: mail not sent');
    else logger.info({ mail }, 'SMTP_URL is not set: the mail is written here instead of sent');
    return;
  }
  let transport = transports.get(config.SMTP_URL);
  if (!transport) {
    transport = nodemailer.createTransport(config.SMTP_URL);
    transports.set(config.SMTP_URL, transport);
  }
  await transport.sendMail({ from: config.MAIL_FROM, ...mail });
}
