import { createRequire } from 'node:module';
import type Nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { MailConfig } from '../config.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends e-mail; absent when SMTP_URL is unset, which turns e-mail features off. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export function createMailer(config: MailConfig | null): Mailer | null {
  if (!config) return null;
  // Loaded only when e-mail is configured.
  const nodemailer = createRequire(import.meta.url)('nodemailer') as typeof Nodemailer;
  const transport: Transporter = nodemailer.createTransport(config.smtpUrl);
  return {
    async send(message) {
      // An address object is taken as one address, never parsed for names, groups or lists.
      await transport.sendMail({ from: config.from, ...message, to: { name: '', address: message.to } });
    },
    close: () => transport.close(),
  };
}
