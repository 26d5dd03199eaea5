import { describe, expect, it } from 'vitest';
import { resetPasswordMessage, verifyEmailMessage } from '../src/mail/templates.js';

describe('e-mail templates', () => {
  it.each([
    ['verify', verifyEmailMessage, /24 hours/],
    ['reset', resetPasswordMessage, /1 hour/],
  ])('%s: the link in text and HTML, with its expiry', (_name, template, expiry) => {
    const link = 'https://drive.example.com/x/abc-DEF_123';
    const message = template('someone@example.com', link);
    expect(message.to).toBe('someone@example.com');
    expect(message.text).toContain(`\n${link}\n`);
    expect(message.text).toMatch(expiry);
    expect(message.html).toContain(`<a href="${link}">${link}</a>`);
  });

  it('escapes the link in HTML', () => {
    const message = verifyEmailMessage('a@example.com', 'https://x.example/"><script>alert(1)</script>');
    expect(message.html).not.toContain('<script>');
    expect(message.html).toContain('&#34;&#62;&#60;script&#62;');
  });
});
