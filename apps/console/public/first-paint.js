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

  var user;
  try {
    user = JSON.parse(read('userInfo') || 'null');
  } catch {
    user = null;
  }
  var token = read('jwtToken');
  var signedIn = token && read('refreshToken') && user && typeof user.userName === 'string';
  // A customer page's HTML holds its first screen, drawn at build time (scripts/first-screens.mjs), hidden unless this
  // says otherwise: shown to a signed-in customer, with their name where the shell shows it. A visitor, staff and a
  // staff member's view of a customer (whose banner the drawn shell lacks) get the usual loader. Same keys as
  // src/lib/session.ts, same roles as the contract's CUSTOMER_ROLES (app/first-screen/first-screen.test.tsx checks both).
  var customerRoles = ['ACCOUNT_OWNER', 'ACCOUNT_ADMIN', 'CLUSTER_MEMBER'];
  if (!signedIn || customerRoles.indexOf(user.role) < 0) return;
  if (!user.userSwitched) showFirstScreen(user.userName);

  // Once the first screen is painted, what the page needs next leaves at once: its reads, and its code. Left to the
  // console's modules, each read would leave only once every module had arrived and run, and each file only once the
  // one importing it had: a round trip apiece on a phone's network. After the paint, so none of it shares the network
  // or the main thread with what the paint waits for.
  var path = window.location.pathname;
  afterFirstContentfulPaint(function () {
    sendEarlyReads(token, user.role, path);
    fetchPageCode();
  });

  function showFirstScreen(userName) {
    var words = userName.trim().split(/\s+/);
    var initials = words
      .slice(0, 2)
      .map(function (word) {
        return word.charAt(0).toUpperCase();
      })
      .join('');
    // CSS strings: JSON's quoting and escapes are CSS's too.
    html.style.setProperty('--kumo-first-initials', JSON.stringify(initials));
    html.style.setProperty('--kumo-first-name', JSON.stringify(userName));
    html.style.setProperty('--kumo-first-first-name', JSON.stringify(words[0] || ''));
    html.setAttribute('data-first-screen', '');
  }

  // At the first contentful paint; at once where the browser does not report it.
  function afterFirstContentfulPaint(run) {
    var Observer = window.PerformanceObserver;
    if (!Observer || !Observer.supportedEntryTypes || Observer.supportedEntryTypes.indexOf('paint') < 0) return run();
    new Observer(function (entries, observer) {
      if (!entries.getEntriesByName('first-contentful-paint').length) return;
      observer.disconnect();
      run();
    }).observe({ type: 'paint', buffered: true });
  }

  // The first screen's reads. src/lib/early-reads.ts hands each answer, once, to the API client's identical read; the
  // headers are the client's (src/lib/api-client.ts). Only an account owner's or admin's (the contract's
  // canUseCustomerArea): the reads are theirs. early-reads.test.ts checks the names.
  function sendEarlyReads(token, role, path) {
    var shellReads = ['/api/user/detail', '/api/user/notifications?page=0&size=10', '/api/saas-common/help-document-links'];
    var pageReads = [
      ['/clusters', ['/api/cluster/view']],
      ['/subscriptions', ['/api/subscription/list']],
      ['/users', ['/api/account/users', '/api/account/invitations']],
    ];
    var homeReads = ['/api/subscription/list', '/api/cluster/view', '/api/subscription/consumption/overview'];
    var reads = path === '/' ? homeReads : null;
    for (var i = 0; !reads && i < pageReads.length; i++) if (path.indexOf(pageReads[i][0]) === 0) reads = pageReads[i][1];
    // None for an address with a query (the card checkout's return): what the page does with it (confirming a
    // payment) changes what the reads would answer, and an answer read before it would be handed to the read after it.
    if (window.location.search) return;
    if (!reads || (role !== 'ACCOUNT_OWNER' && role !== 'ACCOUNT_ADMIN') || !window.fetch || !window.crypto || !crypto.randomUUID) return;
    var timeZone = typeof Temporal === 'undefined' ? Intl.DateTimeFormat().resolvedOptions().timeZone : Temporal.Now.timeZoneId();
    var answers = {};
    shellReads.concat(reads).forEach(function (url) {
      var response = fetch(url, {
        credentials: 'same-origin',
        headers: {
          Accept: 'application/json',
          Authorization: 'Bearer ' + token,
          'x-correlation-id': crypto.randomUUID(),
          usertimezone: timeZone,
        },
      });
      // An unclaimed failure is nobody's to report: the screen's own read, sent when this one is not taken, reports it.
      response.catch(function () {});
      answers[url] = response;
    });
    window.kumoEarlyReads = { token: token, startedAt: Date.now(), answers: answers };
  }

  // The page's code, as the build listed it (scripts/first-screens.mjs), as module preloads, in the build's order. A few
  // per task: adding one costs the browser a moment, and a page's two dozen at once were a long task on a slow phone.
  function fetchPageCode() {
    var code = document.querySelector('meta[name="kumo-page-code"]');
    if (!code) return;
    var hrefs = code.getAttribute('content').split(' ');
    var perTask = 2;
    (function preload(from) {
      hrefs.slice(from, from + perTask).forEach(function (href) {
        var link = document.createElement('link');
        link.rel = 'modulepreload';
        link.crossOrigin = '';
        link.href = href;
        document.head.appendChild(link);
      });
      if (from + perTask < hrefs.length) window.setTimeout(preload, 0, from + perTask);
    })(0);
  }
})();
