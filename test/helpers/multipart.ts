// A multipart/form-data body built in memory, for app.inject in tests and for the benchmarks'
// load generator (which prebuilds its bodies so building them is not timed).

export interface MultipartBody {
  payload: Buffer;
  headers: { 'content-type': string };
}

export function multipart(
  fields: Record<string, string>,
  file?: { name: string; data: Buffer; type?: string },
): MultipartBody {
  const boundary = `----docpipe${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
    );
    parts.push(file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
