// Runs before the page's first paint (a classic script at the top of <body>, as the CSP allows no
// inline script): the link's large text and presenter view are applied at once, so the page is
// laid out once in its mode and does not reflow when main.js has loaded. main.js keeps them in
// sync with their checkboxes afterwards.
(() => {
  const params = new URLSearchParams(window.location.search);
  for (const mode of ['large', 'present']) {
    if (params.get(mode) === '1') {
      document.documentElement.classList.add(mode);
      document.body.classList.add(mode);
    }
  }
})();
