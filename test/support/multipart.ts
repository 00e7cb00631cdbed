/** multipart/form-data bodies built by hand, so a test can send exactly the parts it means. */
import { randomBytes } from "node:crypto";

export interface Part {
  name: string;
  /** a file part when set; a text field otherwise */
  filename?: string;
  contentType?: string;
  data: Buffer | string;
}

export function multipart(parts: readonly Part[]): { body: Buffer; contentType: string } {
  const boundary = `----swarf-test-${randomBytes(8).toString("hex")}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ""}`;
    const type =
      part.filename !== undefined ? `\r\nContent-Type: ${part.contentType ?? "application/octet-stream"}` : "";
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data));
    chunks.push(Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** One file part named `file`: what the upload routes take. */
export function fileUpload(data: Buffer, filename = "job.famc"): { body: Buffer; contentType: string } {
  return multipart([{ name: "file", filename, data }]);
}
