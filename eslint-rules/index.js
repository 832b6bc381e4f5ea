// @ts-check
/** The repository's own ESLint rules, loaded from eslint.config.js as the `moments` plugin. */
import catchSaysWhy from './catch-says-why.js';

export default { rules: { 'catch-says-why': catchSaysWhy } };
