import { describe, expect, it } from 'vitest';
import { parseRealtimeMessage } from './messages';
import { realtimeUrl } from './channel';

describe('pushed messages', () => {
  it('reads task, export and sync messages and drops anything else', () => {
    const task = parseRealtimeMessage(
      JSON.stringify({
        type: 'TASK_STATUS_UPDATE',
        id: 'n1',
        data: { task_id: 't1', task_status: 'DONE', task_title: 'Talk', progress: 100 },
      }),
    );
    expect(task).toMatchObject({ type: 'TASK_STATUS_UPDATE', id: 'n1' });
    expect(
      parseRealtimeMessage(JSON.stringify({ type: 'SYNC_NOTIFY_VIEW', data: { ids: ['a'] } })),
    ).toEqual({ type: 'SYNC_NOTIFY_VIEW', data: { ids: ['a'] } });
    expect(parseRealtimeMessage(JSON.stringify({ type: 'SYNC_NOTIFY_DELETE', data: {} }))).toBe(
      null,
    );
    expect(parseRealtimeMessage(JSON.stringify({ type: 'SOMETHING_ELSE', data: {} }))).toBe(null);
    expect(parseRealtimeMessage('not json')).toBe(null);
  });

  it('connects to /stomp-ws on the page origin, wss on https', () => {
    expect(realtimeUrl({ protocol: 'https:', host: 'clips.example' })).toBe(
      'wss://clips.example/stomp-ws',
    );
    expect(realtimeUrl({ protocol: 'http:', host: '127.0.0.1:8080' })).toBe(
      'ws://127.0.0.1:8080/stomp-ws',
    );
  });
});
