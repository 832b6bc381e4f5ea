export { registerUploadRoutes, type UploadRoutesDeps } from './uploads.controller.js';
export { safeDisplayName, titleFromFileName } from './display-name.js';
export { type IngestInput } from './uploads.service.js';
