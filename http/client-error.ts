/**
 * Answers for requests Node's HTTP parser refuses before Express sees them: a control character
 * in a header, Content-Length beside Transfer-Encoding, headers past the size limit, a request
 * that took too long to arrive. Node's own answer is a bare status line with no body, so a
 * client saw an empty reply with no X-Request-Id; this one is the error envelope like every
 * other refusal. Written straight to the socket (there is no request or response object), and
 * only while nothing has been written on the connection yet, as Node does; then it is closed.
 */
import type { Socket } from "node:net";
import { newRequestId } from "./request-id/index.ts";

interface ParserError extends Error {
  code?: string;
}

/** status, code and message per parser error; anything else is a malformed request */
const REFUSALS: Record<string, [number, string, string, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    "Request Header Fields Too Large",
    "request_header_fields_too_large",
    "the request's headers are larger than the server accepts",
  ],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [
    413,
    "Payload Too Large",
    "payload_too_large",
    "the request's chunk extensions are larger than the server accepts",
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request Timeout", "request_timeout", "the request did not arrive in time"],
};

export function answerClientError(error: ParserError, socket: Socket): void {
  if (!socket.writable || socket.bytesWritten > 0) {
    socket.destroy();
    return;
  }
  const [status, reason, code, message] = REFUSALS[error.code ?? ""] ?? [
    400,
    "Bad Request",
    "malformed_request",
    `the request is not valid HTTP/1.1 (${error.code ?? "unknown"}: ${error.message.replace(/[^\x20-\x7e]/g, "?")})`,
  ];
  const requestId = newRequestId();
  const body = JSON.stringify({
    detail: { code, message, details: { parser_error: error.code ?? null }, request_id: requestId },
  });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n` +
      "Content-Type: application/json; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      "Connection: close\r\n\r\n" +
      body,
  );
  socket.destroySoon();
}
