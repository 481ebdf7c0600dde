import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { RenderedMail } from './mail-templates.ts';

export interface Mailer {
  send(to: string, mail: RenderedMail): Promise<void>;
}

/**
 * SMTP when a URL is configured; otherwise each message is written as an .eml file in the
 * outbox folder, so a deployment without a mail server still works and can be inspected.
 */
export function createMailer(opts: { smtpUrl: string | undefined; from: string; outboxDir: string; log: Logger }): Mailer {
  // nodemailer (5 MB) loads with the first mail, not with the server; one transport is kept.
  let transport: Promise<Transporter> | undefined;
  const transporter = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      opts.smtpUrl
        ? nodemailer.createTransport(opts.smtpUrl)
        : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    ));
  if (opts.smtpUrl) {
    return {
      async send(to, mail) {
        await (await transporter()).sendMail({ from: opts.from, to, ...mail });
      },
    };
  }
  return {
    async send(to, mail) {
      const info = await (await transporter()).sendMail({ from: opts.from, to, ...mail });
      await mkdir(opts.outboxDir, { recursive: true });
      const safeTo = to.replace(/[^a-zA-Z0-9@._-]/g, '_');
      const file = path.join(opts.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${safeTo}.eml`);
      await writeFile(file, info.message as Buffer);
      opts.log.info({ to, subject: mail.subject, file }, 'mail written to the outbox');
    },
  };
}
