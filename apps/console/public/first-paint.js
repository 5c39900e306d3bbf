/* global window, document */
// Runs before the page is drawn. A file rather than an inline script: the portal's Content-Security-Policy allows only
// 'self' scripts.
(function () {
  var html = document.documentElement;
  var storage = null;
  try {
    storage = window.localStorage;
  } catch {
    // storage blocked: the system's colour scheme, and no first screen
  }
  var read = function (key) {
    try {
      return storage ? storage.getItem(key) : null;
    } catch {
      return null;
    }
  };

  // The colour scheme, set before the console's code arrives, so a dark-scheme visitor sees no white flash. Same key
  // and values as src/app/color-scheme.ts (Mantine's localStorage manager: "light", "dark" or "auto").
  var stored = read('kumo-color-scheme');
  var scheme = stored === 'light' || stored === 'dark' ? stored : 'auto';
  if (scheme === 'auto') scheme = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  html.setAttribute('data-mantine-color-scheme', scheme);

  // A customer page's HTML holds its first screen, drawn at build time (scripts/first-screens.mjs), hidden unless this
  // says otherwise: shown to a signed-in customer, with their name where the shell shows it. A visitor, staff and a
  // staff member's view of a customer (whose banner the drawn shell lacks) get the usual loader. Same keys as
  // src/lib/session.ts, same roles as the contract's CUSTOMER_ROLES (first-paint.test.ts checks both).
  var customerRoles = ['ACCOUNT_OWNER', 'ACCOUNT_ADMIN', 'CLUSTER_MEMBER'];
  var user;
  try {
    user = JSON.parse(read('userInfo') || 'null');
  } catch {
    user = null;
  }
  var signedIn = read('jwtToken') && read('refreshToken');
  if (!signedIn || !user || typeof user.userName !== 'string' || customerRoles.indexOf(user.role) < 0 || user.userSwitched) return;
  var words = user.userName.trim().split(/\s+/);
  var initials = words
    .slice(0, 2)
    .map(function (word) {
      return word.charAt(0).toUpperCase();
    })
    .join('');
  // CSS strings: JSON's quoting and escapes are CSS's too.
  html.style.setProperty('--kumo-first-initials', JSON.stringify(initials));
  html.style.setProperty('--kumo-first-name', JSON.stringify(user.userName));
  html.style.setProperty('--kumo-first-first-name', JSON.stringify(words[0] || ''));
  html.setAttribute('data-first-screen', '');
})();
