export { registerUploadRoutes } from './uploads.controller.js';
export { safeDisplayName, titleFromFileName } from './display-name.js';
export { UploadsService } from './uploads.service.js';
export { UploadsRepository } from './uploads.repository.js';
export { UploadLimitsGuard } from './upload-limits.js';
