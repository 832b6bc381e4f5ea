import { describe, expect, it } from 'vitest';
import { encodeFrame, StompFrameDecoder, StompProtocolError } from './frame.js';

const decode = (...chunks: string[]) => {
  const decoder = new StompFrameDecoder(64 * 1024);
  return chunks.flatMap((chunk) => decoder.push(Buffer.from(chunk)));
};

describe('STOMP 1.2 frame codec', () => {
  it('round-trips header values holding the escaped characters \\ \\n \\r and :', () => {
    const value = 'C:\\videos\nline two\r:end';
    const [frame] = decode(encodeFrame('SUBSCRIBE', { id: '1', 'x-path': value }));
    expect(frame?.headers['x-path']).toBe(value);
    expect(encodeFrame('MESSAGE', { 'x-path': value })).toContain(
      'x-path:C\\c\\\\videos\\nline two\\r\\cend\n',
    );
  });

  it('leaves CONNECT headers unescaped, as STOMP 1.2 requires', () => {
    const [frame] = decode('CONNECT\ntoken:a\\b:c\n\n\0');
    expect(frame?.headers.token).toBe('a\\b:c');
    expect(encodeFrame('CONNECTED', { session: 'a:b' })).toContain('session:a:b\n');
  });

  it('reads bodies by content-length in bytes, so they may contain NULL octets and UTF-8', () => {
    const body = 'caf\u00e9 \u0000 \ud83d\ude00';
    const [frame] = decode(encodeFrame('SEND', { destination: '/x' }, body));
    expect(frame?.body.toString('utf8')).toBe(body);
    expect(frame?.headers['content-length']).toBe(String(Buffer.byteLength(body)));
  });

  it('joins frames split across messages, splits frames sharing one, and skips heart-beats', () => {
    const frames = decode(
      '\n\r\nSUBSCRIBE\r\nid:1\r\ndestination:/user/queue/msg\r\n',
      '\r\n\0\n\nUNSUBSCRIBE\nid:1\n\n\0ACK\nid:',
      '9\n\n\0\n',
    );
    expect(frames.map((frame) => [frame.command, frame.headers.id])).toEqual([
      ['SUBSCRIBE', '1'],
      ['UNSUBSCRIBE', '1'],
      ['ACK', '9'],
    ]);
    expect(frames[0]?.headers.destination).toBe('/user/queue/msg');
  });

  it('keeps the first of repeated headers', () => {
    const [frame] = decode('SUBSCRIBE\nid:first\nid:second\n\n\0');
    expect(frame?.headers.id).toBe('first');
  });

  it.each([
    ['a header line without a colon', 'SUBSCRIBE\nid\n\n\0', 'Malformed frame'],
    ['an undefined escape', 'SUBSCRIBE\nid:\\t\n\n\0', 'Invalid header escape sequence'],
    ['a lowercase command', 'connect\n\n\0', 'Malformed frame'],
    ['a body longer than its content-length', 'SEND\ncontent-length:1\n\nab\0', 'Malformed frame'],
    ['a frame over the limit', `SEND\n\n${'x'.repeat(70_000)}`, 'Frame too large'],
  ])('rejects %s', (_case, input, message) => {
    expect(() => decode(input)).toThrow(StompProtocolError);
    expect(() => decode(input)).toThrow(message);
  });
});
