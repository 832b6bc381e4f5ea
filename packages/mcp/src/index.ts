export { createMomentsMcpServer, type MomentsMcpOptions } from './tools.js';
