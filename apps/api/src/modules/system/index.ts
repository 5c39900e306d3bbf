/** The system module's public face: liveness and readiness. */
export { systemRoutes } from './system.routes.js';
