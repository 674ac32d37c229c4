// Runs in <head> before the first paint, written into index.html by the build (bootScriptPlugin.ts) and
// allowed by its hash in the CSP (no 'unsafe-inline'). Applies the stored darkMode ("true"/"false", else the
// system's preference) and language so nothing flashes.
(function () {
  var root = document.documentElement;
  var dark = null;
  var lang = null;
  try {
    dark = localStorage.getItem('darkMode');
    lang = localStorage.getItem('language');
  } catch (e) {
    /* storage blocked: use the defaults */
  }
  var isDark = dark === 'true' || (dark !== 'false' && window.matchMedia && matchMedia('(prefers-color-scheme: dark)').matches);
  root.setAttribute('data-theme', isDark ? 'dark' : 'light');
  root.style.colorScheme = isDark ? 'dark' : 'light';
  if (lang !== 'ru' && lang !== 'en') {
    // A first visit: the browser's language by the app's rule (i18n.ts, languageOfTag).
    var tag = ((navigator.languages && navigator.languages[0]) || navigator.language || '').toLowerCase().split(/[-_]/)[0];
    lang = !tag || tag === 'ru' || tag === 'uk' || tag === 'be' || tag === 'kk' ? 'ru' : 'en';
  }
  root.lang = lang;
  // Start fetching the chosen language's texts now, in parallel with the entry script (see localesPlugin.ts).
  var listed = document.querySelector('meta[name="iskra-locales"]');
  var wanted = lang;
  var pairs = listed ? listed.getAttribute('content').split(';') : [];
  function preloadTexts(wanted) {
    for (var i = 0; i < pairs.length; i++) {
      var pair = pairs[i].split('=');
      if (pair[0] !== wanted) continue;
      var link = document.createElement('link');
      link.rel = 'preload';
      link.as = 'fetch';
      link.crossOrigin = 'anonymous';
      link.href = pair[1];
      document.head.appendChild(link);
    }
  }
  preloadTexts(wanted);
  var meta = document.querySelector('meta[name="theme-color"]');
  if (meta) meta.setAttribute('content', isDark ? '#121016' : '#fff7f5');

  // Issue 41: what the first screen needs starts now, beside the entry script, not after it has run.
  var path = location.pathname.toLowerCase();
  // The landing the build wrote into the page (bootLandingPlugin.ts, shown by the script after it) paints
  // with the HTML on the web's `/`, before the app's code has come; inside Telegram `/` opens the deck (the
  // app's platform/detect.ts rule).
  var telegram = /[#&?]tgWebAppData=/.test(location.hash) || /[?&]tgWebAppData=/.test(location.search);
  try {
    telegram = telegram || sessionStorage.getItem('iskra.telegram') === '1';
  } catch (e) {
    /* storage blocked: the address alone, as the app decides */
  }
  if (path === '/' && !telegram) root.setAttribute('data-boot-landing', '');
  // The reads first, then the chunks: on HTTP/1.1 (six connections a host) the first card's answer, which
  // its photo waits for, must not queue behind the scripts. Where the first card's photo will be painted
  // (below), the chunks wait for it: the slow link shares its bandwidth between the responses under way,
  // so each one beside the photo slowed the screen's largest paint; should the app run first, it imports
  // them itself (a module preloaded later is not fetched again). So does the account's dictionary where
  // its language is not this device's (12 kB beside the photo put its paint about 70 ms later; the app's
  // code, which needs it, arrives later still), but not once the app has drawn, by when it is fetching its
  // texts itself with fetch(), which a later preload would fetch a second time (bootCard.e2e.test.ts holds
  // the app's request and counts one). Not the device's own dictionary: waiting with it made the first
  // card's screen ready about 90 ms later.
  var preloaded = false;
  var accountTexts = null;
  function preloadRest() {
    if (preloaded) return;
    preloaded = true;
    preloadChunks();
    var early = window.__iskraEarly;
    if (accountTexts && !(early && early.released)) preloadTexts(accountTexts);
  }
  if (!startReads()) preloadRest();

  function preloadChunks() {
    // The lazy chunks of this page (the API client everywhere, the deck on /search): see bootPreloadPlugin.ts.
    var preload = document.querySelector('meta[name="iskra-preload"]');
    var groups = preload ? preload.getAttribute('content').split(';') : [];
    for (var g = 0; g < groups.length; g++) {
      var group = groups[g].split('=');
      if (group[0] !== '*' && group[0] !== path) continue;
      var files = (group[1] || '').split(',');
      for (var f = 0; f < files.length; f++) {
        // The app may have imported it already, with Vite's own preload of it: one link a file.
        if (document.querySelector('link[href="' + files[f] + '"]')) continue;
        var file = document.createElement('link');
        var style = /\.css$/.test(files[f]);
        file.rel = style ? 'preload' : 'modulepreload';
        if (style) file.as = 'style';
        file.crossOrigin = 'anonymous';
        file.href = files[f];
        document.head.appendChild(file);
      }
    }
  }

  function startReads() {
    // The session and, on the deck, the first card: the app's API client (src/api/earlyResponses.ts) takes
    // these answers instead of asking again, when it asks for the same address with the same token.
    var token = null;
    try {
      token = localStorage.getItem('jwtToken');
    } catch (e) {
      /* storage blocked: the cookie session */
    }
    // Inside Telegram without a token the launch data sign in first (SessionProvider): nothing to read yet.
    var telegramLaunch = /tgWebApp/.test(location.hash + location.search);
    if (!window.fetch || (telegramLaunch && !token)) return false;
    var early = (window.__iskraEarly = { path: path, token: token, responses: {} });
    function ask(url) {
      var headers = { Accept: 'application/json' };
      if (token) headers.Authorization = 'Bearer ' + token;
      var answer = fetch(url, { headers: headers, credentials: 'same-origin' });
      answer['catch'](function () {
        /* the app asks again and says what failed */
      });
      early.responses[url] = answer;
      return answer;
    }
    ask('/api/current_user').then(function (response) {
      if (!response.ok) return;
      // The account's language wins over this device's (i18n.ts, followAccountLanguage): on a device that
      // has not stored it yet, its texts are fetched now rather than once the session has been checked.
      response
        .clone()
        .json()
        .then(function (user) {
          var language = user && user.language;
          if ((language !== 'ru' && language !== 'en') || language === lang) return;
          if (preloaded) preloadTexts(language);
          else accountTexts = language;
        })
        ['catch'](function () {});
    }, function () {});
    if (path !== '/search') return false;
    // The deck's first request (screens/Search/useSwipeDeck.ts with lib/filters.ts): the stored filters.
    var low = 18;
    var high = 100;
    var gender = 'Any';
    // "Verified only" (issue 40) is asked for only when on, after the gender, as lib/filters.ts orders it.
    var verifiedOnly = '';
    try {
      var range = JSON.parse(localStorage.getItem('ageRange') || 'null');
      if (range && range.length === 2 && typeof range[0] === 'number' && typeof range[1] === 'number') {
        // clampAgeRange: 18 to 100 in steps of 4 (stops 0 to 21), the lower stop below the upper.
        var at = function (i) {
          return Math.min(100, 18 + i * 4);
        };
        var index = function (age) {
          return age >= 100 ? 21 : Math.max(0, Math.min(21, Math.round((age - 18) / 4)));
        };
        var hi = Math.max(1, index(range[1]));
        low = at(Math.min(index(range[0]), hi - 1));
        high = at(hi);
      }
      var stored = localStorage.getItem('selectedGender');
      if (stored === 'Male' || stored === 'Female' || stored === 'Other') gender = stored;
      if (localStorage.getItem('verifiedOnly') === 'true') verifiedOnly = '&verifiedOnly=true';
      // A distance limit snaps to the slider's stops (lib/filterStops.ts): left to the app, not guessed here.
      if (localStorage.getItem('maxDistance') !== null) return false;
    } catch (e) {
      /* defaults */
    }
    // Whether the photo will be painted here, so the rest waits for it (above): a phone's web page.
    var paints = !token && !!window.matchMedia && matchMedia('(max-width: 699px)').matches;
    ask('/api/search?ageMin=' + low + '&ageMax=' + high + '&gender=' + gender + verifiedOnly).then(function (response) {
      if (!response.ok) return preloadRest();
      // The first card's photo, as soon as its name is known: it is the screen's largest paint.
      response
        .clone()
        .json()
        .then(function (card) {
          var name = card && typeof card.photo === 'string' ? card.photo.split(',')[0] : '';
          if (!name) return preloadRest();
          var photo = document.createElement('link');
          photo.rel = 'preload';
          photo.as = 'image';
          photo.setAttribute('fetchpriority', 'high');
          photo.href = '/api/uploads/' + name;
          document.head.appendChild(photo);
          showCard(photo.href);
        })
        ['catch'](preloadRest);
    }, preloadRest);
    return paints;

    // The first card's photo painted where the deck will show it, before the app's code has arrived and run
    // (issue 41: on a phone the photo came about a second after it had loaded). On a phone's web page only:
    // the box is the deck's there (fill mode, between the top bar and the tab bar: .boot-card in app.css);
    // inside Telegram the frame differs. The app removes it as it draws the deck's first state, or any other
    // screen (src/lib/bootCard.ts); decorative, so hidden from assistive technology.
    function showCard(src) {
      if (!paints || early.released) return preloadRest();
      var box = document.createElement('div');
      box.id = 'boot-card';
      box.className = 'boot-card';
      box.setAttribute('aria-hidden', 'true');
      var image = document.createElement('img');
      image.alt = '';
      image.setAttribute('fetchpriority', 'high');
      image.onload = image.onerror = preloadRest;
      image.src = src;
      box.appendChild(image);
      document.body.appendChild(box);
    }
  }
})();
