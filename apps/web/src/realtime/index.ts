export {
  RealtimeChannel,
  realtimeChannel,
  realtimeUrl,
  stompSessionHeaders,
  type RealtimeClientState,
  type RealtimeListener,
  type RealtimeStatus,
} from './channel';
export {
  useRealtimeConnection,
  useRealtimeMessages,
  useRealtimeReconnect,
  useRealtimeStatus,
} from './hooks';
export {
  parseRealtimeMessage,
  type JobStatusData,
  type RealtimeMessage,
  type TaskStatusData,
  type TaskPartialData,
} from './messages';
