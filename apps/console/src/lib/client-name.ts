/**
 * A client's short name from its User-Agent, for tables where the whole string would fill the row: "Chrome 156 on
 * Linux", "curl 8.5.0", "DBeaver 24.1". Browsers name their engine's relatives first, so the order of the checks matters.
 */
const BROWSERS: [pattern: RegExp, name: string][] = [
  [/Edg\/(\d+)/, 'Edge'],
  [/OPR\/(\d+)/, 'Opera'],
  [/HeadlessChrome\/(\d+)/, 'Headless Chrome'],
  [/Chrome\/(\d+)/, 'Chrome'],
  [/Firefox\/(\d+)/, 'Firefox'],
  [/Version\/(\d+)[\d.]* .*Safari\//, 'Safari'],
];

const SYSTEMS: [pattern: RegExp, name: string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPad/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux|X11/, 'Linux'],
];

const LONGEST = 40;

export function clientName(userAgent: string): string {
  for (const [pattern, name] of BROWSERS) {
    const version = userAgent.match(pattern)?.[1];
    if (version) {
      const system = SYSTEMS.find(([test]) => test.test(userAgent))?.[1];
      return system ? `${name} ${version} on ${system}` : `${name} ${version}`;
    }
  }
  // A tool names itself first, as product/version: curl/8.5.0, DBeaver/24.1.0, node, python-requests/2.31.
  const product = userAgent.match(/^([A-Za-z][\w.-]*)\/([\w.]+)/);
  if (product) return `${product[1]} ${product[2]}`;
  return userAgent.length > LONGEST ? `${userAgent.slice(0, LONGEST - 1)}…` : userAgent;
}
