// STOMP 1.2 frame codec (https://stomp.github.io/stomp-specification-1.2.html).
// Works on bytes because content-length counts octets, not UTF-16 units.

const NULL = 0x00;
const LF = 0x0a;
const CR = 0x0d;

export type StompHeaders = Record<string, string>;

export interface StompFrame {
  command: string;
  headers: StompHeaders;
  body: Buffer;
}

/** A frame the peer sent that breaks the protocol: the connection answers with ERROR and closes. */
export class StompProtocolError extends Error {
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'StompProtocolError';
  }
}

// STOMP 1.2: CONNECT and CONNECTED headers are sent verbatim so that 1.0 peers can read them.
function usesHeaderEscaping(command: string): boolean {
  return command !== 'CONNECT' && command !== 'CONNECTED';
}

function escapeHeaderValue(value: string): string {
  return value.replace(/[\\\r\n:]/g, (char) => {
    switch (char) {
      case '\\':
        return '\\\\';
      case '\r':
        return '\\r';
      case '\n':
        return '\\n';
      default:
        return '\\c';
    }
  });
}

function unescapeHeaderValue(value: string): string {
  return value.replace(/\\(.?)/gs, (_match, next: string) => {
    switch (next) {
      case '\\':
        return '\\';
      case 'r':
        return '\r';
      case 'n':
        return '\n';
      case 'c':
        return ':';
      default:
        // STOMP 1.2: "Undefined escape sequences ... MUST be treated as a fatal protocol error".
        throw new StompProtocolError(
          'Invalid header escape sequence',
          `"\\${next}" is not defined`,
        );
    }
  });
}

/** Serialises a frame; the body gets a content-length so it may hold any octet. */
export function encodeFrame(command: string, headers: StompHeaders, body = ''): string {
  const escape = usesHeaderEscaping(command) ? escapeHeaderValue : (value: string) => value;
  let text = command + '\n';
  for (const [name, value] of Object.entries(headers)) {
    text += `${escape(name)}:${escape(value)}\n`;
  }
  if (body.length > 0) text += `content-length:${Buffer.byteLength(body)}\n`;
  return text + '\n' + body + '\0';
}

/** The heart-beat the STOMP spec defines: a lone end-of-line between frames. */
export const HEARTBEAT_EOL = '\n';

/**
 * Incremental decoder: a frame may arrive split over several WebSocket messages, and one
 * message may hold several frames and heart-beat EOLs.
 */
export class StompFrameDecoder {
  private buffered: Buffer = Buffer.alloc(0);

  constructor(private readonly maxFrameBytes: number) {}

  /** Appends bytes and returns the complete frames they finish; throws StompProtocolError. */
  push(chunk: Buffer): StompFrame[] {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const frames: StompFrame[] = [];
    for (;;) {
      this.skipHeartbeats();
      if (this.buffered.length === 0) break;
      const frame = this.takeFrame();
      if (!frame) {
        if (this.buffered.length > this.maxFrameBytes) throw this.tooLarge();
        break;
      }
      frames.push(frame);
    }
    return frames;
  }

  private tooLarge(): StompProtocolError {
    return new StompProtocolError(
      'Frame too large',
      `Frames are limited to ${this.maxFrameBytes} bytes`,
    );
  }

  private skipHeartbeats(): void {
    let start = 0;
    while (start < this.buffered.length) {
      const byte = this.buffered[start];
      if (byte === LF) start += 1;
      else if (byte === CR && this.buffered[start + 1] === LF) start += 2;
      else if (byte === CR && start + 1 === this.buffered.length)
        break; // wait for the LF
      else break;
    }
    if (start > 0) this.buffered = this.buffered.subarray(start);
  }

  /** Reads one line ending at LF (an optional CR before it is dropped), or null when incomplete. */
  private readLine(from: number): { line: string; next: number } | null {
    const end = this.buffered.indexOf(LF, from);
    if (end === -1) return null;
    const lineEnd = end > from && this.buffered[end - 1] === CR ? end - 1 : end;
    return { line: this.buffered.toString('utf8', from, lineEnd), next: end + 1 };
  }

  private takeFrame(): StompFrame | null {
    const commandLine = this.readLine(0);
    if (!commandLine) return null;
    const command = commandLine.line;
    if (!/^[A-Z]+$/.test(command)) {
      throw new StompProtocolError('Malformed frame', 'Expected a STOMP command line');
    }

    const headers: StompHeaders = {};
    let position = commandLine.next;
    for (;;) {
      const headerLine = this.readLine(position);
      if (!headerLine) return null;
      position = headerLine.next;
      if (headerLine.line === '') break;
      const colon = headerLine.line.indexOf(':');
      if (colon <= 0) {
        throw new StompProtocolError('Malformed frame', `Invalid header line in ${command}`);
      }
      const rawName = headerLine.line.slice(0, colon);
      const rawValue = headerLine.line.slice(colon + 1);
      const escaped = usesHeaderEscaping(command);
      const name = escaped ? unescapeHeaderValue(rawName) : rawName;
      // STOMP 1.2: when a header repeats, only the first occurrence counts.
      if (!(name in headers)) headers[name] = escaped ? unescapeHeaderValue(rawValue) : rawValue;
    }

    let bodyEnd: number;
    const contentLength = headers['content-length'];
    if (contentLength !== undefined) {
      if (!/^\d+$/.test(contentLength)) {
        throw new StompProtocolError('Malformed frame', 'content-length must be a number');
      }
      const length = Number(contentLength);
      if (position + length + 1 > this.maxFrameBytes) throw this.tooLarge();
      if (this.buffered.length < position + length + 1) return null;
      bodyEnd = position + length;
      if (this.buffered[bodyEnd] !== NULL) {
        throw new StompProtocolError('Malformed frame', 'Body is not followed by a NULL octet');
      }
    } else {
      bodyEnd = this.buffered.indexOf(NULL, position);
      if (bodyEnd === -1) return null;
    }
    if (bodyEnd + 1 > this.maxFrameBytes) throw this.tooLarge();

    const body = Buffer.from(this.buffered.subarray(position, bodyEnd));
    this.buffered = this.buffered.subarray(bodyEnd + 1);
    return { command, headers, body };
  }
}
