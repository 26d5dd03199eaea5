export type Part = { name: string; value: string } | { name: string; filename: string; data: Buffer | string; type?: string };

/** A multipart/form-data body exactly as a browser's FormData would send it. */
export async function multipartBody(parts: Part[]): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const part of parts) {
    if ('value' in part) form.append(part.name, part.value);
    else {
      const data = typeof part.data === 'string' ? part.data : new Uint8Array(part.data);
      form.append(part.name, new Blob([data], { type: part.type ?? 'application/octet-stream' }), part.filename);
    }
  }
  const response = new Response(form);
  return { body: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type')! };
}
