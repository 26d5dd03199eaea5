// Hostile HTTP requests for every route of the server, as fast-check arbitraries. Plain JavaScript
// so that both the vitest fuzz test (inject) and `npm run bench fuzz` (a real server process, no
// TypeScript loader) draw from the very same generator. Pure: it never does I/O; the runner fills in
// the live session (`auth: 'session'`) when it sends a request.
import fc from 'fast-check';

// ---------------------------------------------------------------------------------------------
// Hostile values

const HUGE = 100 * 1024;

/** Strings chosen to break parsers, paths, SQL, logs and headers. */
const nastyConstants = [
  '',
  ' ',
  '/',
  '.',
  '..',
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2f',
  '....//....//',
  'a/../../b',
  '\u0000',
  'a\u0000b',
  '\u0000../etc',
  '\r\nSet-Cookie: pwned=1',
  'line\nbreak',
  '\u202egnp.exe',
  '\ud800',
  '\udfff\ud800',
  '\ufeff',
  'e\u0301\u0301\u0301\u0301',
  '𝕏😀👨‍👩‍👧‍👦',
  'İıſK',
  '／ｅｔｃ／ｐａｓｓｗｄ',
  'CON',
  'nul.txt',
  ' trailing ',
  "' OR '1'='1' --",
  '"; DROP TABLE file; --',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '%s%n%x',
  '%',
  '%zz',
  '%00',
  '%ff%fe',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'null',
  'undefined',
  'true',
  '-1',
  '0',
  '1e309',
  'NaN',
  'Infinity',
  '9007199254740993',
  '0x1F',
  '1.5',
  '2024-13-45T99:99:99Z',
  '0000-00-00T00:00:00Z',
  '+275760-09-13T00:00:00.001Z',
  '/dav/../../',
];

/** Large strings: 100 KB names and the like, built lazily so each draw costs one allocation. */
const hugeString = fc.constantFrom(
  () => 'x'.repeat(HUGE),
  () => 'é'.repeat(HUGE / 2),
  () => '../'.repeat(HUGE / 3),
  () => '😀'.repeat(HUGE / 4),
  () => '\u0000'.repeat(1024),
  () => 'a/'.repeat(HUGE / 2),
  () => '%'.repeat(HUGE),
);

export const nastyString = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...nastyConstants) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: hugeString.map((make) => make()) },
);

/** Any JSON value, the wrong type for almost every field. */
const wrongType = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -0, Number.MAX_SAFE_INTEGER + 2, [], {}, [null], { $gt: '' }, ['a', 'b']),
  fc
    .constantFrom(
      () => JSON.parse('{"__proto__":{"isAdmin":true}}'),
      () => ({ constructor: { prototype: { polluted: 1 } } }),
      () => Array.from({ length: 2000 }, (_, i) => i),
      () => nest(500),
    )
    .map((make) => make()),
  fc.jsonValue({ maxDepth: 3 }),
);

function nest(depth) {
  let value = 'deep';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

// ---------------------------------------------------------------------------------------------
// Identifiers: the attacker's own, the victim's, and junk

function idPool(ctx, kind) {
  const own = ctx.attacker[kind] ?? [];
  const theirs = ctx.victim[kind] ?? [];
  const options = [
    { weight: 3, arbitrary: fc.constantFrom('/', 'root', 'nonexistent-id-0000', 'a'.repeat(64), 'a'.repeat(65)) },
    { weight: 3, arbitrary: nastyString },
  ];
  if (own.length) options.push({ weight: 4, arbitrary: fc.constantFrom(...own) });
  if (theirs.length) options.push({ weight: 6, arbitrary: fc.constantFrom(...theirs) });
  return fc.oneof(...options);
}

const anyId = (ctx) => fc.oneof(idPool(ctx, 'fileIds'), idPool(ctx, 'folderIds'));

/** A field value: usually a plausible id or name, often hostile, sometimes the wrong type. */
function fieldValue(ctx, kind) {
  const plausible =
    kind === 'file'
      ? idPool(ctx, 'fileIds')
      : kind === 'folder'
        ? idPool(ctx, 'folderIds')
        : kind === 'link'
          ? idPool(ctx, 'linkIds')
          : kind === 'bool'
            ? fc.constantFrom(true, false, 'true', 'false', 1, 0)
            : kind === 'int'
              ? fc.oneof(fc.integer(), fc.constantFrom(0, -1, 2 ** 53, 1e21, 0.5, '10'))
              : kind === 'date'
                ? fc.oneof(
                    fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
                    nastyString,
                  )
                : kind === 'items'
                  ? itemsValue(ctx)
                  : nastyString;
  return fc.oneof({ weight: 12, arbitrary: plausible }, { weight: 3, arbitrary: nastyString }, { weight: 1, arbitrary: wrongType });
}

function itemsValue(ctx) {
  const item = fc.record(
    {
      type: fc.oneof(fc.constantFrom('file', 'folder', 'quick-item'), nastyString, wrongType),
      id: fc.oneof({ weight: 4, arbitrary: anyId(ctx) }, { weight: 1, arbitrary: wrongType }),
    },
    { requiredKeys: [] },
  );
  return fc.oneof(
    { weight: 5, arbitrary: fc.array(item, { maxLength: 6 }) },
    { weight: 1, arbitrary: fc.constant(null).map(() => Array.from({ length: 1001 }, () => ({ type: 'file', id: 'x' }))) },
  );
}

// ---------------------------------------------------------------------------------------------
// The routes

/**
 * Every route of app.ts: method, path (`:name` params), how input is sent, and its fields with
 * their kinds. `noSession` routes end or rotate the session when sent with it, which would leave
 * the rest of the run signed out; they are fuzzed signed out or with forged cookies instead.
 */
const ROUTES = [
  { method: 'GET', path: '/health' },
  { method: 'POST', path: '/user-service/create', json: { email: 'email', password: 'str' }, weight: 1 },
  { method: 'POST', path: '/user-service/login', json: { email: 'email', password: 'str' }, weight: 1 },
  { method: 'GET', path: '/user-service/user' },
  { method: 'GET', path: '/user-service/user-detailed' },
  { method: 'POST', path: '/user-service/get-token' },
  { method: 'POST', path: '/user-service/logout', noSession: true },
  { method: 'POST', path: '/user-service/logout-all', noSession: true },
  { method: 'PATCH', path: '/user-service/change-password', json: { oldPassword: 'str', newPassword: 'str' }, weight: 1 },
  { method: 'PATCH', path: '/user-service/resend-verify-email' },
  { method: 'PATCH', path: '/user-service/verify-email', json: { emailToken: 'str' } },
  { method: 'PATCH', path: '/user-service/send-password-reset', json: { email: 'email' } },
  { method: 'PATCH', path: '/user-service/reset-password', json: { passwordToken: 'str', password: 'str' } },
  { method: 'POST', path: '/user-service/app-passwords', json: { name: 'str' } },
  { method: 'GET', path: '/user-service/app-passwords' },
  { method: 'DELETE', path: '/user-service/app-passwords/:appPasswordId' },

  {
    method: 'GET',
    path: '/file-service/list',
    query: {
      parent: 'folder',
      search: 'str',
      sortBy: 'sort',
      limit: 'int',
      trashMode: 'bool',
      mediaMode: 'bool',
      mediaFilter: 'str',
      startAt: 'bool',
      startAtDate: 'date',
      startAtName: 'str',
      startAtId: 'file',
    },
    weight: 4,
  },
  { method: 'GET', path: '/file-service/quick-list', query: { limit: 'int' } },
  { method: 'GET', path: '/file-service/suggested-list', query: { search: 'str', trashMode: 'bool', mediaMode: 'bool' } },
  { method: 'GET', path: '/file-service/info/:fileId', weight: 3 },
  { method: 'GET', path: '/file-service/download/:fileId', ranged: true, weight: 3 },
  { method: 'PATCH', path: '/file-service/rename', json: { id: 'file', title: 'str' }, weight: 3 },
  { method: 'PATCH', path: '/file-service/move', json: { id: 'file', parentID: 'folder' }, weight: 3 },
  { method: 'PATCH', path: '/file-service/move-multi', json: { items: 'items', parentID: 'folder' }, weight: 2 },
  { method: 'PATCH', path: '/file-service/trash', json: { id: 'file' }, weight: 2 },
  { method: 'PATCH', path: '/file-service/trash-multi', json: { items: 'items' } },
  { method: 'PATCH', path: '/file-service/restore', json: { id: 'file' } },
  { method: 'PATCH', path: '/file-service/restore-multi', json: { items: 'items' } },
  { method: 'DELETE', path: '/file-service/remove', json: { id: 'file' }, weight: 2 },
  { method: 'DELETE', path: '/file-service/remove-multi', json: { items: 'items' } },
  { method: 'PATCH', path: '/file-service/make-public/:fileId', weight: 2 },
  { method: 'PATCH', path: '/file-service/make-one/:fileId', weight: 2 },
  { method: 'PATCH', path: '/file-service/remove-link/:fileId', weight: 2 },
  { method: 'GET', path: '/file-service/public/info/:fileId/:fileToken', weight: 2 },
  { method: 'GET', path: '/file-service/public/download/:fileId/:fileToken', ranged: true, weight: 2 },
  { method: 'GET', path: '/file-service/thumbnail/:thumbnailId' },
  { method: 'GET', path: '/file-service/full-thumbnail/:fileId' },
  { method: 'GET', path: '/file-service/download/access-token-stream-video' },
  { method: 'DELETE', path: '/file-service/remove-stream-video-token' },
  { method: 'GET', path: '/file-service/stream-video/:fileId', ranged: true, query: { 'access-token': 'str' } },
  { method: 'POST', path: '/file-service/semantic-search', json: { query: 'str', userId: 'str' } },
  { method: 'POST', path: '/file-service/upload', multipart: 'file', weight: 3 },

  {
    method: 'GET',
    path: '/folder-service/list',
    query: { parent: 'folder', search: 'str', sortBy: 'sort', limit: 'int', trashMode: 'bool' },
  },
  { method: 'GET', path: '/folder-service/info/:folderId', weight: 2 },
  {
    method: 'GET',
    path: '/folder-service/move-folder-list',
    query: { parent: 'folder', search: 'str', folderIDs: 'folder', currentParent: 'folder' },
  },
  { method: 'GET', path: '/folder-service/download-zip', query: { 'folderIDs[]': 'folder', 'fileIDs[]': 'file' }, weight: 2 },
  { method: 'POST', path: '/folder-service/create', json: { name: 'str', parent: 'folder' }, weight: 3 },
  { method: 'PATCH', path: '/folder-service/rename', json: { id: 'folder', title: 'str' }, weight: 2 },
  { method: 'PATCH', path: '/folder-service/move', json: { id: 'folder', parentID: 'folder' }, weight: 3 },
  { method: 'PATCH', path: '/folder-service/trash', json: { id: 'folder' }, weight: 2 },
  { method: 'PATCH', path: '/folder-service/restore', json: { id: 'folder' } },
  { method: 'DELETE', path: '/folder-service/remove', json: { id: 'folder' }, weight: 2 },
  { method: 'POST', path: '/folder-service/upload', multipart: 'folder', weight: 2 },

  { method: 'OPTIONS', path: '/file-service/tus', tus: true },
  { method: 'POST', path: '/file-service/tus', tus: true, weight: 2 },
  { method: 'HEAD', path: '/file-service/tus/:tusId', tus: true },
  { method: 'PATCH', path: '/file-service/tus/:tusId', tus: true, weight: 2 },
  { method: 'DELETE', path: '/file-service/tus/:tusId', tus: true },

  { method: 'GET', path: '/share-service/links', query: { itemId: 'file' } },
  {
    method: 'POST',
    path: '/share-service/links',
    json: {
      itemType: 'str',
      itemId: 'file',
      kind: 'str',
      password: 'str',
      expiresAt: 'date',
      maxDownloads: 'int',
      allowDownload: 'bool',
      maxFileBytes: 'int',
      maxFiles: 'int',
    },
    weight: 2,
  },
  {
    method: 'PATCH',
    path: '/share-service/links/:linkId',
    json: { password: 'str', expiresAt: 'date', maxDownloads: 'int', allowDownload: 'bool', maxFileBytes: 'int', maxFiles: 'int' },
    weight: 2,
  },
  { method: 'DELETE', path: '/share-service/links/:linkId', weight: 2 },
  { method: 'GET', path: '/share-service/file-links' },
  { method: 'GET', path: '/share-service/drops/:fileId' },
  { method: 'GET', path: '/share-service/public/:shareToken', weight: 2 },
  { method: 'POST', path: '/share-service/public/:shareToken/unlock', json: { password: 'str' } },
  { method: 'GET', path: '/share-service/public/:shareToken/list', query: { folder: 'folder', after: 'str', sortBy: 'sort' }, weight: 2 },
  { method: 'GET', path: '/share-service/public/:shareToken/files/:fileId/thumbnail' },
  { method: 'GET', path: '/share-service/public/:shareToken/files/:fileId/preview', ranged: true },
  { method: 'GET', path: '/share-service/public/:shareToken/files/:fileId/download', ranged: true, weight: 2 },
  { method: 'GET', path: '/share-service/public/:shareToken/zip', query: { folder: 'folder' } },
  { method: 'POST', path: '/share-service/public/:shareToken/upload', multipart: 'drop', weight: 2 },
  { method: 'POST', path: '/share-service/public/:shareToken/tus', tus: true },
  { method: 'PATCH', path: '/share-service/public/:shareToken/tus/:tusId', tus: true },
  { method: 'HEAD', path: '/share-service/public/:shareToken/tus/:tusId', tus: true },

  { method: 'DAV', path: '/dav/', dav: true, weight: 8 },
  { method: 'GET', path: '/:junk' },
];

const DAV_METHODS = [
  'OPTIONS',
  'GET',
  'HEAD',
  'PUT',
  'DELETE',
  'PROPFIND',
  'PROPPATCH',
  'MKCOL',
  'COPY',
  'MOVE',
  'LOCK',
  'UNLOCK',
  'POST',
  'PATCH',
  'TRACE',
];
const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'PROPFIND', 'MKCOL'];

// ---------------------------------------------------------------------------------------------
// Encoding

/** Percent-encodes every byte outside the unreserved set, lone surrogates included (as U+FFFD). */
export function encodeSegment(value) {
  let out = '';
  for (const byte of Buffer.from(String(value), 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_.~-]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Raw request-target junk that is still a legal HTTP request line (printable ASCII, no space or #). */
const rawSegment = fc.constantFrom(
  '%',
  '%zz',
  '%00',
  '..',
  '%2e%2e',
  '..%2f..%2f',
  '%c0%ae%c0%ae',
  '%ff',
  '//',
  '.%00.',
  ';a=b',
  '*',
  '%u002e',
);

function pathParam(ctx, name) {
  const kind = {
    fileId: 'fileIds',
    folderId: 'folderIds',
    linkId: 'linkIds',
    tusId: 'tusIds',
    thumbnailId: 'thumbnailIds',
    appPasswordId: 'appPasswordIds',
    fileToken: 'fileTokens',
    shareToken: 'shareTokens',
  }[name];
  const value = kind ? idPool(ctx, kind) : nastyString;
  return fc.oneof({ weight: 8, arbitrary: value.map(encodeSegment) }, { weight: 1, arbitrary: rawSegment });
}

function queryString(ctx, fields) {
  const pairs = Object.entries(fields).map(([name, kind]) => {
    const value =
      kind === 'sort'
        ? fc.oneof(fc.constantFrom('date_asc', 'date_desc', 'alp_asc', 'alp_desc'), nastyString)
        : fieldValue(ctx, kind).map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? '')));
    // Repeated keys become arrays in the parsed query; a schema expecting a string must cope.
    return fc.option(fc.array(value, { minLength: 1, maxLength: 3 }), { nil: undefined }).map((values) => [name, values]);
  });
  const extra = fc.array(
    fc.tuple(fc.oneof(nastyString, fc.constantFrom('__proto__', 'constructor[prototype][x]', 'a[b][c]')), nastyString),
    {
      maxLength: 2,
    },
  );
  return fc.tuple(fc.tuple(...pairs), extra).map(([known, unknown]) => {
    const parts = [];
    for (const [name, values] of known) for (const v of values ?? []) parts.push(`${encodeSegment(name)}=${encodeSegment(v)}`);
    for (const [name, v] of unknown) parts.push(`${encodeSegment(name)}=${encodeSegment(v)}`);
    return parts.length ? `?${parts.join('&')}` : '';
  });
}

// ---------------------------------------------------------------------------------------------
// Bodies

function jsonBody(ctx, fields) {
  const entries = Object.entries(fields).map(([name, kind]) => [name, fieldValue(ctx, kind === 'email' ? 'email' : kind)]);
  const object = fc
    .tuple(
      fc.record(Object.fromEntries(entries), { requiredKeys: [] }),
      fc.oneof(
        { weight: 4, arbitrary: fc.constant([]) },
        { weight: 1, arbitrary: fc.array(fc.tuple(nastyString, wrongType), { maxLength: 2 }) },
      ),
    )
    .map(([known, extra]) => {
      for (const [k, v] of extra) known[k] = v;
      return JSON.stringify(known);
    });
  return fc.oneof(
    { weight: 8, arbitrary: object.map((text) => ({ body: text, type: 'application/json' })) },
    { weight: 2, arbitrary: brokenJson(object) },
    { weight: 1, arbitrary: wrongType.map((v) => ({ body: JSON.stringify(v) ?? 'null', type: 'application/json' })) },
  );
}

function brokenJson(object) {
  return fc.oneof(
    fc.tuple(object, fc.nat()).map(([text, cut]) => ({ body: text.slice(0, cut % Math.max(1, text.length)), type: 'application/json' })),
    fc.constantFrom(
      { body: '{', type: 'application/json' },
      { body: '{"id":', type: 'application/json' },
      { body: '{"id":"a"}garbage', type: 'application/json' },
      { body: '\ufeff{"id":"a"}', type: 'application/json' },
      { body: '', type: 'application/json' },
      { body: '{"__proto__":{"x":1},"id":"a"}', type: 'application/json' },
      { body: '{"constructor":{"prototype":{"x":1}}}', type: 'application/json' },
      { body: '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[', type: 'application/json' },
      { body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), type: 'application/json' },
      { body: '{"id":"a"}', type: 'text/plain' },
      { body: 'id=a&title=b', type: 'application/x-www-form-urlencoded' },
      { body: '{"id":"a"}', type: 'multipart/form-data' },
      { body: '{"id":"a"}', type: 'application/json; charset=utf-16' },
      { body: '{"id":"a"}', type: 'application/json\u0000' },
      { body: '{"id":"a"}', type: `application/${'x'.repeat(5000)}` },
      { body: '{"id":"a"}', type: 'application/json; boundary=' },
      { body: '{"id":"a"}', type: ';;;' },
    ),
    fc.constant(null).map(() => ({ body: `{"id":"${'a'.repeat(2 * 1024 * 1024)}"}`, type: 'application/json' })),
  );
}

const CRLF = '\r\n';

function part(boundary, headers, content) {
  return `--${boundary}${CRLF}${headers.join(CRLF)}${CRLF}${CRLF}${content}${CRLF}`;
}

function multipartBody(ctx, flavour) {
  const boundary = fc.constantFrom('----fuzzboundary7MA4YWxkTrZu0gW', 'b', 'x'.repeat(70), 'a"b');
  const textField = (name) => fc.tuple(fc.constant(name), fieldValue(ctx, name === 'parent' ? 'folder' : 'str'));
  const fields =
    flavour === 'file'
      ? [textField('filename'), textField('parent'), textField('currentID'), textField('size')]
      : flavour === 'folder'
        ? [textField('parent'), textField('total-files'), fileDataField(ctx), fileDataField(ctx)]
        : [textField('name')];
  const filePart = fc.record({
    field: fc.oneof({ weight: 5, arbitrary: fc.constant('file') }, { weight: 1, arbitrary: nastyString }),
    filename: fc.oneof(nastyString, fc.constantFrom('notes.txt', 'a.jpg')),
    type: fc.constantFrom('application/octet-stream', 'image/jpeg', 'text/plain', '', 'video/mp4'),
    content: fc.oneof(
      fc.constantFrom('hello', '', '\u0000\u0001', '\xff\xd8\xff\xe0 not really a jpeg'),
      fc.constant(null).map(() => 'z'.repeat(HUGE)),
    ),
  });
  return fc
    .tuple(
      boundary,
      fc.subarray(fields.map((f, i) => ({ f, i }))).chain((chosen) => fc.tuple(...chosen.map((c) => c.f))),
      fc.array(filePart, { maxLength: 3 }),
      fc.nat(20),
    )
    .map(([b, chosenFields, files, breakage]) => {
      let body = '';
      for (const [name, value] of chosenFields) {
        const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
        body += part(b, [`Content-Disposition: form-data; name="${name}"`], text);
      }
      for (const f of files) {
        body += part(
          b,
          [
            `Content-Disposition: form-data; name="${f.field}"; filename="${String(f.filename).replace(/[\r\n"]/g, '_')}"`,
            `Content-Type: ${f.type}`,
          ],
          f.content,
        );
      }
      body += `--${b}--${CRLF}`;
      let type = `multipart/form-data; boundary=${b}`;
      // Every few draws, damage the body or its type the way real broken clients do.
      switch (breakage) {
        case 0:
          body = body.slice(0, Math.floor(body.length / 2));
          break;
        case 1:
          body = body.replace(`--${b}--`, '');
          break;
        case 2:
          type = 'multipart/form-data';
          break;
        case 3:
          type = 'multipart/form-data; boundary=other';
          break;
        case 4:
          body = body.replaceAll('Content-Disposition: form-data; ', 'Content-Disposition: ');
          break;
        case 5:
          type = 'application/json';
          break;
        case 6:
          body = `--${b}${CRLF}Content-Disposition: form-data; name="file"; filename="${'n'.repeat(HUGE)}"${CRLF}${CRLF}x${CRLF}--${b}--${CRLF}`;
          break;
        case 7:
          body =
            Array.from({ length: 300 }, (_, i) => part(b, [`Content-Disposition: form-data; name="f${i}"`], 'v')).join('') +
            `--${b}--${CRLF}`;
          break;
        case 8:
          body = `--${b}${CRLF}Content-Disposition: form-data; name="file"; filename*=UTF-8''%E0%A4%A${CRLF}${CRLF}x${CRLF}--${b}--${CRLF}`;
          break;
        default:
      }
      return { body, type };
    });
}

function fileDataField(ctx) {
  const meta = fc.record(
    {
      name: fieldValue(ctx, 'str'),
      size: fieldValue(ctx, 'int'),
      type: fieldValue(ctx, 'str'),
      path: fc.oneof(nastyString, fc.constantFrom('a/b/c.txt', '../../x.txt', '/abs/x', 'a//b', `${'d/'.repeat(200)}f`)),
      index: fieldValue(ctx, 'int'),
    },
    { requiredKeys: [] },
  );
  return fc.tuple(
    fc.constant('file-data'),
    fc.oneof(
      meta.map((m) => JSON.stringify(m)),
      nastyString,
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Headers

const rangeHeader = fc.oneof(
  fc.constantFrom(
    'bytes=0-',
    'bytes=0-0',
    'bytes=-1',
    'bytes=-0',
    'bytes=5-1',
    'bytes=0-1,2-3',
    'bytes=99999999999999999999-',
    'bytes=0-99999999999999999999',
    'bytes=-99999999999999999999',
    'bytes=abc',
    'items=0-1',
    'bytes=-',
    'bytes=',
    'bytes=1e3-2e3',
    'bytes=0x10-0x20',
    'bytes= 0 - 1 ',
    `bytes=${'0-1,'.repeat(2000)}0-1`,
  ),
  fc.tuple(fc.integer({ min: -5, max: 2 ** 40 }), fc.integer({ min: -5, max: 2 ** 40 })).map(([a, b]) => `bytes=${a}-${b}`),
  nastyString,
);

const forgedJwt = fc.constantFrom(
  'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4IiwiZXhwIjo5OTk5OTk5OTk5fQ.AAAA',
  'a.b.c',
  '...',
  'e30.e30.e30',
);

function cookieHeader(ctx) {
  return fc.oneof(
    fc
      .tuple(fc.oneof(forgedJwt, nastyString), fc.constantFrom('access-token', 'refresh-token'))
      .map(([v, n]) => `${n}=${encodeSegment(v)}`),
    fc.constantFrom(
      '=;=;;',
      'access-token',
      'access-token=%E0%A4%A',
      'access-token="unterminated',
      'a=1; a=2; access-token=; access-token=x',
    ),
    fc.constant(null).map(() => `access-token=${'a'.repeat(8000)}`),
    fc.constantFrom(...(ctx.forgedCookies ?? ['access-token=none'])),
  );
}

// Wrong passwords only for the victim or nobody: a throttled attacker would sign itself out of
// WebDAV for the rest of the run.
function basicAuth(ctx) {
  const b64 = (s) => Buffer.from(s, 'utf8').toString('base64');
  const real = ctx.attacker.basicAuth ? [ctx.attacker.basicAuth] : [];
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...(real.length ? real : ['Basic eDp5'])) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(ctx.victim.email, 'nobody@example.com'), nastyString)
        .map(([email, pw]) => `Basic ${b64(`${email}:${pw}`)}`),
    },
    { weight: 1, arbitrary: fc.constantFrom('Basic', 'Basic !!!', 'Basic Og==', 'Bearer x', 'Basic ' + b64(':'), 'Digest username="a"') },
  );
}

function tusHeaders(ctx) {
  const b64 = (s) => Buffer.from(String(s), 'utf8').toString('base64');
  const metadata = fc
    .record(
      {
        filename: fc.oneof(nastyString, fc.constantFrom('resume.bin')),
        parent: fieldValue(ctx, 'folder'),
        filetype: fc.oneof(nastyString, fc.constantFrom('text/plain')),
      },
      { requiredKeys: [] },
    )
    .map((m) =>
      Object.entries(m)
        .map(([k, v]) => `${k} ${b64(typeof v === 'string' ? v : JSON.stringify(v))}`)
        .join(','),
    );
  const byteCount = fc.oneof(
    fc.constantFrom('0', '1', '5', '-1', '1.5', 'abc', '99999999999999999', '9007199254740993', ''),
    fc.nat().map(String),
  );
  return fc.record(
    {
      'tus-resumable': fc.oneof({ weight: 6, arbitrary: fc.constant('1.0.0') }, { weight: 1, arbitrary: nastyString }),
      'upload-length': byteCount,
      'upload-offset': byteCount,
      'upload-metadata': fc.oneof(metadata, nastyString, fc.constantFrom('filename', 'filename  x', 'filename a,filename b', 'f !!!!')),
      'upload-checksum': fc.constantFrom(
        'sha256 47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=',
        'md5 xyz',
        'sha256',
        'sha256 ' + 'A'.repeat(43) + '=',
      ),
      'upload-defer-length': fc.constant('1'),
      'content-type': fc.constantFrom('application/offset+octet-stream', 'application/octet-stream', 'text/plain'),
    },
    { requiredKeys: ['tus-resumable'] },
  );
}

function davRequest(ctx) {
  const names = [...(ctx.attacker.davNames ?? []), ...(ctx.victim.davNames ?? []), 'new folder', 'file.txt'];
  const davPath = fc
    .array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...names) }, { weight: 2, arbitrary: nastyString }), { maxLength: 4 })
    .chain((segments) =>
      fc.oneof(
        { weight: 6, arbitrary: fc.constant(segments.map(encodeSegment).join('/')) },
        { weight: 1, arbitrary: rawSegment.map((raw) => `${segments.map(encodeSegment).join('/')}/${raw}`) },
      ),
    );
  const xmlBody = fc.constantFrom(
    '',
    '<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:allprop/></d:propfind>',
    '<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/><x:y xmlns:x="z"/></d:prop></d:propfind>',
    '<d:propfind xmlns:d="DAV:"><d:prop>',
    '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><x>&c;</x>',
    '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><d:propfind xmlns:d="DAV:">&e;</d:propfind>',
    '<?xml version="1.0"?><d:propertyupdate xmlns:d="DAV:" xmlns:z="urn:z"><d:set><d:prop><z:a>\u0000</z:a></d:prop></d:set></d:propertyupdate>',
    '<?xml version="1.0"?><d:lockinfo xmlns:d="DAV:"><d:lockscope><d:exclusive/></d:lockscope><d:locktype><d:write/></d:locktype></d:lockinfo>',
    '<a xmlns="DAV:">' + '<b>'.repeat(5000),
    'not xml at all',
    '\u0000\u0000',
  );
  const headers = fc.record(
    {
      authorization: basicAuth(ctx),
      depth: fc.constantFrom('0', '1', 'infinity', '-1', 'x', ''),
      destination: fc.oneof(
        davPath.map((p) => `/dav/${p}`),
        davPath.map((p) => `http://evil.example/dav/${p}`),
        nastyString,
        fc.constantFrom('/dav/', '/dav/../../etc', 'http://[::1', '//', 'dav/x'),
      ),
      overwrite: fc.constantFrom('T', 'F', 'x'),
      if: fc.oneof(nastyString, fc.constantFrom('(<opaquelocktoken:x>)', '<http://x/dav/a> (Not <urn:uuid:x>)', '((((((')),
      'lock-token': fc.oneof(nastyString, fc.constantFrom('<opaquelocktoken:abc>', '<>')),
      timeout: fc.constantFrom('Second-3600', 'Infinite', 'Second-99999999999999999999', 'Second--1', 'x'),
      'content-type': fc.constantFrom('application/xml', 'text/xml', 'application/octet-stream', 'multipart/form-data'),
      range: rangeHeader,
    },
    { requiredKeys: ['authorization'] },
  );
  return fc
    .record({ method: fc.constantFrom(...DAV_METHODS), path: davPath, headers, body: xmlBody })
    .map(({ method, path, headers: h, body }) => ({
      method,
      url: `/dav/${path}`,
      headers: h,
      body: body || undefined,
      auth: 'none',
      route: `DAV ${method}`,
    }));
}

// ---------------------------------------------------------------------------------------------
// Header mutations shared by all routes

/** One or two odd headers on a request: enough to reach the code behind them, rarely all at once. */
function headerNoise(ctx) {
  const choices = {
    cookie: cookieHeader(ctx),
    uuid: fc.oneof(nastyString, fc.constantFrom('', 'a'.repeat(101), 'not a uuid!')),
    range: rangeHeader,
    'if-range': fc.oneof(nastyString, fc.constantFrom('"etag"', 'Thu, 01 Jan 1970 00:00:00 GMT')),
    'if-none-match': fc.oneof(nastyString, fc.constantFrom('*', '"x", W/"y"')),
    'if-modified-since': fc.oneof(nastyString, fc.constantFrom('Thu, 01 Jan 2099 00:00:00 GMT')),
    'accept-encoding': fc.constantFrom('gzip, br, zstd', '*;q=0', 'identity;q=0'),
    'x-forwarded-for': fc.oneof(nastyString, fc.constantFrom('1.2.3.4, 5.6.7.8', '::1', '999.999.999.999')),
    'content-length': fc.constantFrom('0', '1', '-1', 'abc', '99999999999', '1.5'),
    'content-type': fc.oneof(nastyString, fc.constantFrom('application/json', 'multipart/form-data; boundary=x', 'text/xml')),
    'x-huge': fc.constant('h'.repeat(8 * 1024)),
    authorization: basicAuth(ctx),
    origin: fc.constantFrom('http://evil.example', 'null'),
    'sec-fetch-site': fc.constantFrom('cross-site', 'same-origin', 'none', 'garbage'),
    [`x-${'n'.repeat(200)}`]: fc.constant('long name'),
  };
  const one = fc.oneof(...Object.entries(choices).map(([name, value]) => value.map((v) => [name, v])));
  return fc.array(one, { minLength: 1, maxLength: 2 }).map((pairs) => Object.fromEntries(pairs));
}

/**
 * How a request authenticates: as the attacker's live session (most draws), signed out, or with the
 * session plus forged extras. `noSession` routes never get the live session.
 */
const authMode = (route) =>
  route.noSession
    ? fc.constant('none')
    : fc.oneof({ weight: 8, arbitrary: fc.constant('session') }, { weight: 2, arbitrary: fc.constant('none') });

function routeRequest(ctx, route) {
  const params = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
  const url = fc.tuple(...params.map((p) => (p === 'junk' ? nastyString.map(encodeSegment) : pathParam(ctx, p)))).chain((values) => {
    let path = route.path;
    for (const [i, name] of params.entries()) path = path.replace(`:${name}`, values[i]);
    return route.query ? queryString(ctx, route.query).map((q) => path + q) : fc.constant(path);
  });
  const body = route.json
    ? jsonBody(ctx, route.json)
    : route.multipart
      ? multipartBody(ctx, route.multipart)
      : route.tus && route.method === 'PATCH'
        ? fc.constantFrom({ body: 'hello' }, { body: '' }, { body: 'x'.repeat(HUGE) })
        : fc.constant({});
  const methodDrift = fc.oneof(
    { weight: 12, arbitrary: fc.constant(route.method) },
    { weight: 1, arbitrary: fc.constantFrom(...OTHER_METHODS) },
  );
  return fc
    .record({
      method: methodDrift,
      url,
      body,
      auth: authMode(route),
      tus: route.tus ? tusHeaders(ctx) : fc.constant({}),
      ranged: route.ranged ? fc.option(rangeHeader, { nil: undefined }) : fc.constant(undefined),
      noise: fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 2, arbitrary: headerNoise(ctx) }),
    })
    .map(({ method, url: u, body: b, auth, tus, ranged, noise }) => {
      const headers = { ...tus };
      if (ranged !== undefined) headers.range = ranged;
      if (b.type !== undefined) headers['content-type'] = b.type;
      Object.assign(headers, noise);
      return { method, url: u, headers, body: b.body, auth, route: `${route.method} ${route.path}` };
    });
}

/** One hostile request against any route of the server. */
export function fuzzRequest(ctx) {
  const routes = ROUTES.map((route) => ({ weight: route.weight ?? 1, arbitrary: route.dav ? davRequest(ctx) : routeRequest(ctx, route) }));
  return fc.oneof(...routes);
}

/** The routes the generator knows, for coverage figures. */
export const routeNames = ROUTES.map((r) => `${r.method} ${r.path}`);

/** `n` requests drawn from `seed`, in batches so a long run never holds them all at once. */
export function* requestStream(ctx, seed, n, batch = 100) {
  const arb = fuzzRequest(ctx);
  for (let start = 0, b = 0; start < n; start += batch, b++) {
    // Batches of neighbouring seeds must not overlap, so each batch's seed is mixed from both.
    const batchSeed = (Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(b + 1, 0x85ebca6b)) | 0;
    yield* fc.sample(arb, { seed: batchSeed, numRuns: Math.min(batch, n - start) });
  }
}

/** A short description of a request for a failure report (bodies and long values cut). */
export function describeRequest(request) {
  const cut = (s) => (s.length > 160 ? `${s.slice(0, 160)}… (${s.length} chars)` : s);
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, cut(String(v))]));
  const body =
    request.body === undefined ? undefined : cut(typeof request.body === 'string' ? request.body : request.body.toString('latin1'));
  return JSON.stringify({ route: request.route, method: request.method, url: cut(request.url), auth: request.auth, headers, body });
}
