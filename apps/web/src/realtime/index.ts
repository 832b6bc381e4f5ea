export { stompSessionHeaders } from './channel';
export {
  useRealtimeConnection,
  useRealtimeMessages,
  useRealtimeReconnect,
  useRealtimeStatus,
} from './hooks';
export { type RealtimeMessage, type TaskStatusData } from './messages';
