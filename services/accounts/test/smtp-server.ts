import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  envelopeFrom: string | false;
  envelopeTo: string[];
  mail: ParsedMail;
}

export interface TestSmtpServer {
  server: SMTPServer;
  port: number;
  received: ReceivedMail[];
  /** Messages whose envelope goes to `to`, in the order they arrived. */
  to(to: string): ReceivedMail[];
  /** Messages sent and not accepted yet, while `holdUntil` has not resolved. */
  held(): number;
  close(): Promise<void>;
}

/**
 * A real SMTP server on a free local port that keeps every message it accepts. With `holdUntil`,
 * it accepts no message before that promise resolves: the sender waits, as on a slow mail server.
 */
export async function startSmtpServer(options: { holdUntil?: Promise<unknown> } = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  let held = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      held += 1;
      simpleParser(stream)
        .then(async (mail) => {
          await options.holdUntil;
          held -= 1;
          const { mailFrom, rcptTo } = session.envelope;
          received.push({ envelopeFrom: mailFrom && mailFrom.address, envelopeTo: rcptTo.map((r) => r.address), mail });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    port: (server.server.address() as AddressInfo).port,
    received,
    to: (to) => received.filter((message) => message.envelopeTo.includes(to.toLowerCase())),
    held: () => held,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const addresses = (field: AddressObject | AddressObject[] | undefined) => [field ?? []].flat().flatMap((a) => a.value);

/** The settings that send the accounts service's mail to `smtp`, from a fixed sender, with links to a fixed public URL. */
export const sendingTo = (smtp: TestSmtpServer) => ({
  SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
  MAIL_FROM: 'Cloud Test <no-reply@cloud.example.test>',
  PUBLIC_ACCOUNTS_URL: 'https://accounts.example.test/',
});

/** An smtp:// URL of a port that just had an SMTP server on it and now refuses connections. */
export async function downSmtpUrl(): Promise<string> {
  const gone = await startSmtpServer();
  await gone.close();
  return `smtp://127.0.0.1:${gone.port}`;
}
