import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '@cloud/logging';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The link the message asks the reader to follow; the dev outbox logs it. */
  actionUrl?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Sends over SMTP (`smtp://host:port`, `smtps://user:pass@host:port`). */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send({ to, subject, text }) {
      await transport.sendMail({ from, to, subject, text });
    },
    close: () => transport.close(),
  };
}

/**
 * The embedded default: writes each message as an .eml file under `directory` instead of sending
 * it, so a developer can read the verification e-mail without a mail server, and its text beside
 * it as a .txt: in the .eml a long line (the link) is quoted-printable (`=3D`, soft line breaks),
 * which cannot be copied from the file as it is.
 */
export function outboxMailer(directory: string, from: string, logger: Logger): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let sequence = 0;
  return {
    async send({ to, subject, text, actionUrl }) {
      const info = await transport.sendMail({ from, to, subject, text });
      await mkdir(directory, { recursive: true, mode: 0o700 });
      // Names sort in the order messages were written: time, then a counter for the same millisecond.
      sequence += 1;
      const stamp = `${new Date().toISOString().replace(/[:.]/g, '-')}-${String(sequence).padStart(6, '0')}`;
      const name = `${stamp}-${randomUUID().slice(0, 8)}`;
      const file = path.join(directory, `${name}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      await writeFile(path.join(directory, `${name}.txt`), `To: ${to}\nSubject: ${subject}\n\n${text}`, { mode: 0o600 });
      // Development only (no SMTP_URL): the runtime contract has the link logged so a developer can follow it.
      logger.info('e-mail written to the outbox', { file, to, subject, ...(actionUrl ? { link: actionUrl } : {}) });
    },
    close: () => transport.close(),
  };
}
