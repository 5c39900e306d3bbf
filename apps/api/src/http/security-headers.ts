/** The portal's Content-Security-Policy, shared by the global helmet setting and the routes that relax one directive. */
const directives = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  fontSrc: ["'self'", 'data:'],
  // No other site may frame the portal (clickjacking); the report page relaxes this for the portal itself.
  frameAncestors: ["'none'"],
  formAction: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  // The embedded default is served over plain http on localhost; TLS is the proxy's job.
  upgradeInsecureRequests: null,
};

export const CONTENT_SECURITY_POLICY = { directives };

/** A route's helmet option: the page may be framed by the portal's own origin only (the Reports page shows it in a frame). */
export const FRAMED_BY_PORTAL = { contentSecurityPolicy: { directives: { ...directives, frameAncestors: ["'self'"] } } };

/** An /api/ answer is private and current: never kept by a browser or a proxy unless its route says otherwise. */
export function defaultApiCacheControl(url: string, hasCacheControl: boolean): string | undefined {
  return url.startsWith('/api/') && !hasCacheControl ? 'no-store' : undefined;
}
