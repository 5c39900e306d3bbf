/** The staff single sign-on module's public face: the service, its routes, and the paths the identity provider is told. */
export { createStaffSsoService, type StaffSsoService } from './staff-sso.service.js';
export { staffSsoRoutes, type StaffSsoRouteOptions } from './staff-sso.routes.js';
export { SSO_PATHS } from './sso-transaction.js';
