import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorResponse } from '../contract/errors.ts';

/** The statuses Node's own handler gives these parser errors, with the API's `{error, code}` body. */
function answerFor(code: string | undefined): { status: string; body: ErrorResponse } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: '431 Request Header Fields Too Large',
        body: { error: 'The request is too large', code: 'payload_too_large' },
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: '408 Request Timeout', body: { error: 'The request took too long', code: 'request_timeout' } };
    default:
      return { status: '400 Bad Request', body: { error: 'Malformed HTTP request', code: 'bad_request' } };
  }
}

/** A socket as Node's HTTP server hands it to `clientError`: the response in progress on it, if any. */
type ClientSocket = Duplex & { _httpMessage?: { headersSent?: boolean } | null };

/**
 * Node answers a request it cannot parse (a URL or headers over its 16 KB limit, a broken request line)
 * itself, with no body: the client would get a 4xx that is not JSON. This answers the same statuses with
 * the API's JSON error instead, with the care of Node's own handler: nothing is written into a response
 * already started on that socket (pipelined requests), and the connection is closed.
 */
export function answerClientErrorsInJson(server: Server): void {
  server.on('clientError', (error: Error & { code?: string }, socket: ClientSocket) => {
    if (error.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const { status, body } = answerFor(error.code);
    const text = JSON.stringify(body);
    socket.end(
      `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  });
}
