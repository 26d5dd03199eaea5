// The fuzz run around the generator: two accounts with data, the attacker's live session, the
// victim's snapshot, and the loop that sends the requests and counts the answers. Transport-neutral
// (a `client` function), so the vitest test drives it through `inject` and the benchmark over HTTP.
import { createHash, randomUUID } from 'node:crypto';
import { describeRequest, requestStream } from './fuzz-requests.mjs';

/**
 * Header values as they arrive over a socket: Node reads header bytes as latin1 and refuses control
 * characters, so a value the wire cannot carry is sent the way a real client's bytes would read.
 */
export function wireHeaders(headers) {
  const out = {};
  for (const [name, value] of Object.entries(headers)) {
    const latin1 = Buffer.from(String(value), 'utf8').toString('latin1');
    // Tab stays; every other control character is refused by Node's parser.
    out[name] = [...latin1].filter((c) => c === '\t' || (c >= ' ' && c !== '\x7f')).join('');
  }
  return out;
}

/** One browser's cookie jar and `uuid`, over any client. */
export class Account {
  constructor(client, email, password) {
    this.client = client;
    this.email = email;
    this.password = password;
    this.uuid = randomUUID();
    this.cookies = new Map();
    this.id = '';
  }

  cookieFor(url) {
    return [...this.cookies]
      .filter(([, c]) => url.startsWith(c.path))
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
  }

  absorb(setCookie) {
    const list = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
    for (const line of list) {
      const [pair, ...attributes] = line.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const attr = Object.fromEntries(attributes.map((a) => [a.split('=')[0].toLowerCase(), a.split('=').slice(1).join('=')]));
      const expired = value === '' || attr['max-age'] === '0' || (attr.expires && Date.parse(attr.expires) <= Date.now());
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, { value, path: attr.path || '/' });
    }
  }

  async request(method, url, { json, body, headers = {}, remoteAddress } = {}) {
    const all = { uuid: this.uuid, ...headers };
    const cookie = this.cookieFor(url);
    if (cookie) all.cookie = cookie;
    if (json !== undefined) {
      all['content-type'] = 'application/json';
      body = JSON.stringify(json);
    }
    const response = await this.client({ method, url, headers: all, body, remoteAddress });
    this.absorb(response.headers['set-cookie']);
    return response;
  }

  async expect(status, method, url, options) {
    const response = await this.request(method, url, options);
    if (response.status !== status) throw new Error(`${method} ${url}: ${response.status} ${response.body.toString().slice(0, 300)}`);
    const text = response.body.toString();
    return text ? JSON.parse(text) : null;
  }

  async signUp() {
    const created = await this.expect(201, 'POST', '/user-service/create', { json: { email: this.email, password: this.password } });
    this.id = created.user._id;
  }

  async signIn(remoteAddress) {
    const response = await this.request('POST', '/user-service/login', {
      json: { email: this.email, password: this.password },
      remoteAddress,
    });
    return response.status === 200;
  }

  async upload(filename, data, parent = '/') {
    const form = new FormData();
    form.append('filename', filename);
    form.append('parent', parent);
    form.append('currentID', 'u1');
    form.append('size', String(Buffer.byteLength(data)));
    form.append('file', new Blob([data]), 'blob');
    const encoded = new Response(form);
    const body = Buffer.from(await encoded.arrayBuffer());
    return this.expect(201, 'POST', '/file-service/upload', { body, headers: { 'content-type': encoded.headers.get('content-type') } });
  }

  folder(name, parent = '/') {
    return this.expect(201, 'POST', '/folder-service/create', { json: { name, parent } });
  }

  async tusUpload(filename, length) {
    const response = await this.request('POST', '/file-service/tus', {
      headers: {
        'tus-resumable': '1.0.0',
        'upload-length': String(length),
        'upload-metadata': `filename ${Buffer.from(filename).toString('base64')}`,
      },
    });
    if (response.status !== 201) throw new Error(`tus create: ${response.status}`);
    return String(response.headers.location).split('/').pop();
  }
}

/** Drive, links, app password and an unfinished upload for one account; returns its generator context. */
async function populate(account, prefix) {
  await account.signUp();
  const top = await account.folder(`${prefix} Projects`);
  const nested = await account.folder(`${prefix} Nested`, top._id);
  const empty = await account.folder(`${prefix} Empty`);
  const files = [
    await account.upload(`${prefix}-notes.txt`, `${prefix} notes: private words\n`),
    await account.upload(`${prefix}-report.pdf`, Buffer.from(`%PDF-1.4 ${prefix} report`), top._id),
    await account.upload(`${prefix}-deep.bin`, Buffer.alloc(70_000, prefix.length), nested._id),
    await account.upload(`${prefix}-shared.txt`, `${prefix} shared by link\n`),
  ];
  const shared = await account.expect(200, 'PATCH', `/file-service/make-public/${files[3]._id}`);
  const fileLink = await account.expect(201, 'POST', '/share-service/links', {
    json: { itemType: 'file', itemId: files[0]._id, kind: 'view', password: 'link-secret' },
  });
  const folderLink = await account.expect(201, 'POST', '/share-service/links', {
    json: { itemType: 'folder', itemId: top._id, kind: 'view' },
  });
  const links = [fileLink, folderLink];
  // A drop link lets anyone add files to the folder: the attacker's own folder only, since the
  // victim's listing must not change.
  if (prefix === 'attacker')
    links.push(
      await account.expect(201, 'POST', '/share-service/links', { json: { itemType: 'folder', itemId: empty._id, kind: 'drop' } }),
    );
  const appPassword = await account.expect(201, 'POST', '/user-service/app-passwords', { json: { name: `${prefix} laptop` } });
  const tusId = await account.tusUpload(`${prefix}-half.bin`, 1000);
  return {
    email: account.email,
    fileIds: files.map((f) => f._id),
    folderIds: [top._id, nested._id, empty._id],
    linkIds: links.map((l) => l.id),
    tusIds: [tusId],
    thumbnailIds: files.map((f) => f.metadata.thumbnailID || f._id),
    appPasswordIds: prefix === 'victim' ? [appPassword.id] : [],
    fileTokens: [shared.metadata.link],
    shareTokens: links.map((l) => l.token),
    davNames: [`${prefix} Projects`, `${prefix} Nested`, `${prefix}-notes.txt`, `${prefix}-report.pdf`],
    basicAuth: `Basic ${Buffer.from(`${account.email}:${appPassword.password}`).toString('base64')}`,
  };
}

/** Two accounts with files, folders, links, app passwords and unfinished uploads. */
export async function seedAccounts(client) {
  const tag = randomUUID().slice(0, 8);
  const attacker = new Account(client, `attacker-${tag}@example.com`, 'attacker-password');
  const victim = new Account(client, `victim-${tag}@example.com`, 'victim-password');
  const attackerIds = await populate(attacker, 'attacker');
  const victimIds = await populate(victim, 'victim');
  const { basicAuth: _victimAuth, ...victimKnown } = victimIds;
  return { attacker, victim, ctx: { attacker: attackerIds, victim: victimKnown }, victimTusIds: victimIds.tusIds };
}

/** Everything of the victim's that a fuzzed request could change: tree, bytes, links, uploads, devices. */
export async function snapshotVictim(victim, tusIds) {
  const folders = [];
  const files = [];
  const visit = async (parent) => {
    const q = new URLSearchParams({ parent, limit: '100' });
    files.push(...(await victim.expect(200, 'GET', `/file-service/list?${q}`)));
    for (const folder of await victim.expect(200, 'GET', `/folder-service/list?parent=${encodeURIComponent(parent)}`)) {
      folders.push(folder);
      await visit(folder._id);
    }
  };
  await visit('/');
  const trash = {
    files: await victim.expect(200, 'GET', '/file-service/list?trashMode=true&limit=100'),
    folders: await victim.expect(200, 'GET', '/folder-service/list?trashMode=true'),
  };
  const bytes = {};
  for (const file of files) {
    const response = await victim.request('GET', `/file-service/download/${file._id}`);
    bytes[file._id] = `${response.status} ${createHash('sha256').update(response.body).digest('hex')}`;
  }
  const { links } = await victim.expect(200, 'GET', '/share-service/links');
  const uploads = {};
  for (const id of tusIds) {
    const response = await victim.request('HEAD', `/file-service/tus/${id}`, { headers: { 'tus-resumable': '1.0.0' } });
    uploads[id] = `${response.status} ${response.headers['upload-offset']}/${response.headers['upload-length']}`;
  }
  const appPasswords = await victim.expect(200, 'GET', '/user-service/app-passwords');
  return {
    user: await victim.expect(200, 'GET', '/user-service/user'),
    folders: sortById(folders),
    files: sortById(files),
    trash,
    bytes,
    // Visitors' downloads and visits are counted; that is use of the link, not a change to it.
    links: sortById(links).map(({ downloads: _d, lastAccessAt: _l, ...link }) => link),
    fileLinks: sortById(await victim.expect(200, 'GET', '/share-service/file-links')),
    uploads,
    appPasswords: sortById(appPasswords).map(({ lastUsedAt: _u, ...device }) => device),
  };
}

function sortById(items) {
  return [...items].sort((a, b) => String(a._id ?? a.id).localeCompare(String(b._id ?? b.id)));
}

/** A client address per request, so login throttling by address never locks the attacker out. */
function addressOf(i) {
  return `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
}

/**
 * Sends `runs` requests drawn from `seed` as the attacker (or signed out), one at a time so the run
 * is reproducible. Re-signs the attacker in when a fuzzed call ended its session. Returns the figures.
 */
export async function runFuzz({ client, ctx, attacker, seed, runs, concurrency = 1, onProgress }) {
  const stats = { requests: 0, byStatus: {}, byRoute: {}, serverErrors: [], transportErrors: [], reSignIns: 0 };
  const stream = requestStream(ctx, seed, runs);
  let index = 0;
  const worker = async () => {
    for (;;) {
      const next = stream.next();
      if (next.done) return;
      const i = index++;
      const request = next.value;
      const headers = wireHeaders(request.headers);
      if (request.auth === 'session') {
        const own = attacker.cookieFor(request.url.split('?')[0]);
        headers.cookie = [own, headers.cookie].filter(Boolean).join('; ');
        headers.uuid ??= attacker.uuid;
      }
      let response;
      try {
        response = await client({ method: request.method, url: request.url, headers, body: request.body, remoteAddress: addressOf(i) });
      } catch (err) {
        stats.transportErrors.push(`${describeRequest(request)} -> ${err instanceof Error ? err.message : String(err)}`);
        continue;
      } finally {
        stats.requests++;
      }
      if (request.auth === 'session' && headers.uuid === attacker.uuid) attacker.absorb(response.headers['set-cookie']);
      stats.byStatus[response.status] = (stats.byStatus[response.status] ?? 0) + 1;
      stats.byRoute[request.route] = (stats.byRoute[request.route] ?? 0) + 1;
      if (response.status >= 500) {
        stats.serverErrors.push(`${response.status} ${describeRequest(request)} -> ${response.body.toString().slice(0, 200)}`);
      }
      if (i % 50 === 49) await keepSignedIn(attacker, stats, i);
      onProgress?.(stats);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return stats;
}

async function keepSignedIn(attacker, stats, i) {
  const me = await attacker.request('GET', '/user-service/user');
  if (me.status === 200) return;
  stats.reSignIns++;
  if (!(await attacker.signIn(addressOf(i + 1_000_000)))) throw new Error(`the attacker cannot sign in again (${me.status})`);
}
