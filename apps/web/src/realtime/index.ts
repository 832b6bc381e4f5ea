export {
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
  type JobStatusData,
  type RealtimeMessage,
  type TaskStatusData,
  type TaskPartialData,
} from './messages';
