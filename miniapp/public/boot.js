// Runs in <head> before the first paint (external: the CSP forbids inline scripts). Applies the stored
// darkMode ("true"/"false", else the system's preference) and language so nothing flashes.
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
  var meta = document.querySelector('meta[name="theme-color"]');
  if (meta) meta.setAttribute('content', isDark ? '#121016' : '#fff7f5');
})();
