export { registerUploadRoutes, type UploadRoutesDeps } from './uploads.controller.js';
export { safeDisplayName, titleFromFileName } from './display-name.js';
export { UploadsService, type IngestInput } from './uploads.service.js';
export { UploadsRepository } from './uploads.repository.js';
export { UploadLimitsGuard } from './upload-limits.js';
