/** The help module's public face: documentation links per section. */
export { helpRoutes } from './help.routes.js';
