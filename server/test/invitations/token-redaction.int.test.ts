import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';

interface LogLine {
  msg: string;
  req?: { url?: string };
}

describe('invitation links in the request log', () => {
  let t: TestApp;
  let text = '';
  const lines: LogLine[] = [];
  let token: string;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString('utf8');
        for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as LogLine);
        done();
      },
    });
    t = await createTestApp({ logLevel: 'info' }, { logStream: sink });
    const admin = new TestBrowser(t.app);
    await admin.signUp();
    const created = await admin.post('/invitation-service/invitations', { email: 'guest@example.com' });
    token = (created.json() as { link: string }).link.split('/').pop()!;
  });
  afterAll(() => t.close());

  it('never hold the token', async () => {
    const seen = lines.length;
    expect((await new TestBrowser(t.app).get(`/invitation-service/public/${token}`)).statusCode).toBe(200);
    expect((await new TestBrowser(t.app).get(`/invitation-service/public/${token}x`)).statusCode).toBe(404);
    const incoming = lines.slice(seen).filter((l) => l.msg === 'incoming request');
    expect(incoming.map((l) => l.req?.url)).toEqual(['/invitation-service/public/[redacted]', '/invitation-service/public/[redacted]']);
    expect(text).not.toContain(token);
  });

  it("leave it out of the web app's sign-up page address too", async () => {
    const seen = lines.length;
    await new TestBrowser(t.app).get(`/invite/${token}`);
    const incoming = lines.slice(seen).filter((l) => l.msg === 'incoming request');
    expect(incoming.map((l) => l.req?.url)).toEqual(['/invite/[redacted]']);
    expect(text).not.toContain(token);
  });
});
