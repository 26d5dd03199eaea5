import type { MailMessage } from './mailer.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function linkMessage(to: string, subject: string, intro: string, link: string, outro: string): MailMessage {
  return {
    to,
    subject,
    text: `${intro}\n\n${link}\n\n${outro}\n`,
    html: `<p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>${escapeHtml(outro)}</p>`,
  };
}

export function verifyEmailMessage(to: string, link: string): MailMessage {
  return linkMessage(
    to,
    'Verify your Nimbus e-mail address',
    'Open this link to verify your e-mail address:',
    link,
    'The link works once and expires in 24 hours.',
  );
}

export function resetPasswordMessage(to: string, link: string): MailMessage {
  return linkMessage(
    to,
    'Reset your Nimbus password',
    'Open this link to choose a new password:',
    link,
    'The link works once and expires in 1 hour. If you did not ask for it, ignore this e-mail.',
  );
}
