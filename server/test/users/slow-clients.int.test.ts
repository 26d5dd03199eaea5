import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** Opens a raw connection, sends `head`, then one byte every `everyMs`; resolves when the server closes it. */
function trickle(port: number, head: string, everyMs: number, limitMs: number): Promise<{ closedAfterMs: number | null }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head));
    const timer = setInterval(() => socket.writable && socket.write('x'), everyMs);
    const give = setTimeout(() => finish(null), limitMs);
    const finish = (closedAfterMs: number | null) => {
      clearInterval(timer);
      clearTimeout(give);
      socket.destroy();
      resolve({ closedAfterMs });
    };
    socket.on('close', () => finish(Date.now() - started));
    socket.on('error', () => undefined);
    socket.resume();
  });
}

describe('slow clients', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({
      http: {
        port: 0,
        host: '127.0.0.1',
        appUrl: 'https://drive.example.com',
        secureCookies: true,
        trustProxy: false,
        bodyTimeoutMs: 500,
        idleTimeoutMs: 1500,
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => t.close());

  it('closes a request whose body trickles in, however steadily', async () => {
    const head =
      'POST /user-service/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nuuid: u\r\nContent-Length: 1000\r\n\r\n';
    const { closedAfterMs } = await trickle(port, head, 100, 10_000);
    expect(closedAfterMs).not.toBeNull();
  });

  it('lets an upload take its time while bytes keep coming, and closes one that goes silent', async () => {
    const alice = new TestBrowser(t.app);
    await alice.signUp();
    const cookie = [...alice.cookies].map(([name, c]) => `${name}=${c.value}`).join('; ');
    const upload =
      'POST /file-service/upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\n' +
      `uuid: ${alice.browserId}\r\ncookie: ${cookie}\r\nContent-Length: 100000\r\n\r\n` +
      '--b\r\nContent-Disposition: form-data; name="file"; filename="slow.bin"\r\n\r\n';
    // Steady bytes: still open after three body timeouts.
    const steady = await trickle(port, upload, 100, 1800);
    expect(steady.closedAfterMs).toBeNull();
    const silent = await trickle(port, upload, 60_000, 10_000);
    expect(silent.closedAfterMs).not.toBeNull();
  });

  it('forgets the body deadline of every answered request', async () => {
    const alice = new TestBrowser(t.app);
    await alice.signUp();
    for (let i = 0; i < 5; i++) {
      expect((await alice.post('/user-service/login', { email: 'x@example.com', password: 'wrong-one' })).statusCode).toBe(401);
      // A GET's body is never read: only the answer ends its deadline.
      expect((await alice.get('/user-service/user')).statusCode).toBe(200);
    }
    // Past the 500 ms body timeout: a timer left behind would now close (or fail on) a finished request.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect((await alice.get('/user-service/user')).statusCode).toBe(200);
  });

  it('asks browsers to stay on https when the app is served over https', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health' });
    expect(response.headers['strict-transport-security']).toBe('max-age=15552000');
  });
});
