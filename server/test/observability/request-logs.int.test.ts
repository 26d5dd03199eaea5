import type { ApiErrorBody } from '@nimbus/common';
import { createServer, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  [key: string]: unknown;
}

/** An SMTP URL nobody listens on, so sending fails and the account service logs it. */
async function deadSmtpUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `smtp://127.0.0.1:${port}`;
}

describe('logs: the request id on every line of a request', () => {
  let t: TestApp;
  const lines: LogLine[] = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as LogLine);
        done();
      },
    });
    t = await createTestApp(
      {
        logLevel: 'info',
        search: { enabled: false, embeddings: null },
        mail: { smtpUrl: await deadSmtpUrl(), from: 'nimbus@example.com' },
      },
      { logStream: sink },
    );
  });
  afterAll(() => t.close());

  it('tags what a service logs while serving a request with that request’s id, the one the error answer gives', async () => {
    const browser = new TestBrowser(t.app);
    await browser.signUp();
    const response = await browser.patch('/user-service/resend-verify-email');
    expect(response.statusCode).toBe(503);
    const { requestId } = response.json<ApiErrorBody>();

    const mailFailure = lines.filter((l) => l.msg === 'sending e-mail failed');
    // Sign-up's own attempt and the resend: each under its own request.
    expect(mailFailure).toHaveLength(2);
    expect(mailFailure.every((l) => typeof l.reqId === 'string')).toBe(true);
    expect(mailFailure[1]!.reqId).toBe(requestId);
    expect(mailFailure[0]!.reqId).not.toBe(requestId);

    const ofRequest = lines.filter((l) => l.reqId === requestId).map((l) => l.msg);
    expect(ofRequest).toEqual(expect.arrayContaining(['incoming request', 'sending e-mail failed', 'request completed']));
  });

  it('gives every request line and its error answer the same id, without secrets', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/file-service/info/abc',
      headers: { cookie: 'access-token=secret-cookie' },
    });
    const { requestId } = response.json<ApiErrorBody>();
    const ofRequest = lines.filter((l) => l.reqId === requestId);
    expect(ofRequest.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
    expect(JSON.stringify(ofRequest)).not.toContain('secret-cookie');
    // Every line written while serving requests carries an id.
    expect(lines.filter((l) => l.msg === 'incoming request' || l.msg === 'request completed').every((l) => l.reqId)).toBe(true);
  });
});
