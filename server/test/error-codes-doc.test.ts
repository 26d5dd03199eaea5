import { ERROR_CODES } from '@nimbus/common';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { statusOf } from '../src/http/plugins/error-handler.js';

const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/errors.md'), 'utf8');
const documented = new Map([...doc.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])] as const));

describe('docs/errors.md', () => {
  it('documents every error code, and no code that does not exist', () => {
    expect([...documented.keys()].sort()).toEqual([...ERROR_CODES].sort());
  });

  it.each([...ERROR_CODES])('gives %s the status the server answers with', (code) => {
    expect(documented.get(code)).toBe(statusOf(code));
  });
});
