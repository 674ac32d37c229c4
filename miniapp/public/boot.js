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
  if (lang === 'ru' || lang === 'en') root.lang = lang;
  var meta = document.querySelector('meta[name="theme-color"]');
  if (meta) meta.setAttribute('content', isDark ? '#121016' : '#fff7f5');
})();
