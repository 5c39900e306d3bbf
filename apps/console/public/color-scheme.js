/* global window, document */
// Sets the colour scheme before the console's code arrives, so a dark-scheme visitor sees no white flash.
// A file rather than an inline script: the portal's Content-Security-Policy allows only 'self' scripts.
// Same key and values as src/app/color-scheme.ts (Mantine's localStorage manager: "light", "dark" or "auto").
(function () {
  var stored = null;
  try {
    stored = window.localStorage.getItem('kumo-color-scheme');
  } catch {
    // storage blocked: follow the system
  }
  var scheme = stored === 'light' || stored === 'dark' ? stored : 'auto';
  if (scheme === 'auto') scheme = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
})();
