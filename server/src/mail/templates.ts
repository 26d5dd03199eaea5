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

/** Tells an account that another one shared a file or folder with it. */
export function itemSharedMessage(to: string, sharedBy: string, itemName: string, role: 'viewer' | 'editor', link: string): MailMessage {
  const can = role === 'editor' ? 'view and change' : 'view';
  return linkMessage(
    to,
    `${sharedBy} shared “${itemName}” with you on Nimbus`,
    `${sharedBy} shared “${itemName}” with you: you can ${can} it. Find it under "Shared with me":`,
    link,
    'You get this e-mail because someone shared an item with your Nimbus account.',
  );
}

/** Invites someone to make an account on this server; the link opens the sign-up page. */
export function invitationMessage(to: string, invitedBy: string, link: string, days: number): MailMessage {
  return linkMessage(
    to,
    `${invitedBy} invited you to Nimbus`,
    `${invitedBy} invited you to make an account on their Nimbus server. Open this link to sign up with this e-mail address:`,
    link,
    `The link works once and expires in ${days} days. If you did not expect it, ignore this e-mail.`,
  );
}

/** Tells an account of a sign-in from a browser and network it never signed in from. */
export function newSignInMessage(to: string, sign: { device: string; address: string; at: Date }, settingsLink: string): MailMessage {
  const facts = [`Device: ${sign.device}`, `Address: ${sign.address}`, `Time: ${sign.at.toUTCString()}`];
  const intro = 'Your Nimbus account was just signed in to from a browser and network it was not used from before.';
  const advice =
    'If this was you, there is nothing to do. If it was not, change your password now and sign out that session in Settings → Devices:';
  return {
    to,
    subject: 'New sign-in to your Nimbus account',
    text: `${intro}\n\n${facts.join('\n')}\n\n${advice}\n\n${settingsLink}\n`,
    html:
      `<p>${escapeHtml(intro)}</p><p>${facts.map(escapeHtml).join('<br>')}</p><p>${escapeHtml(advice)}</p>` +
      `<p><a href="${escapeHtml(settingsLink)}">${escapeHtml(settingsLink)}</a></p>`,
  };
}
