import { describe, expect, it } from 'vitest';
import { invitationMessage } from '../../src/mail/templates.js';

describe('the invitation e-mail', () => {
  it('carries the link in text and HTML, who invited, and the expiry', () => {
    const link = 'https://drive.example.com/invite/abc-DEF_123';
    const message = invitationMessage('guest@example.com', 'owner@example.com', link, 7);
    expect(message.to).toBe('guest@example.com');
    expect(message.subject).toContain('owner@example.com');
    expect(message.text).toContain(`\n${link}\n`);
    expect(message.text).toContain('owner@example.com invited you');
    expect(message.text).toMatch(/7 days/);
    expect(message.html).toContain(`<a href="${link}">${link}</a>`);
  });

  it('escapes the inviter in HTML', () => {
    const message = invitationMessage('guest@example.com', '<b>x</b>@example.com', 'https://x.example/invite/t', 7);
    expect(message.html).not.toContain('<b>');
  });
});
