// stampcam serve: what its pages share (the server's camera, a phone's own): who this page is, the
// access token kept out of the address bar, and the page's words in the browser's language.
'use strict';
window.stampcam = (() => {
  // Who this page is, kept in `storage` (a tab's own, or the phone's for good), so the server can
  // tell pages apart where no team token names them.
  function clientId(storage) {
    const fresh = () => Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');
    try {
      let id = storage.getItem('stampcam-client');
      if (!id) { id = fresh(); storage.setItem('stampcam-client', id); }
      return id;
    } catch (e) {
      return fresh();
    }
  }

  // The access token came in the address; the server has put it in a cookie. Keep it out of the
  // address bar, the history and screenshots.
  if (/[?&]token=/.test(location.search)) history.replaceState(null, '', location.pathname);

  // The page's words: the server has them in every language it has a catalogue for and picks the
  // best of the browser's list (English when none fits). Elements with `data-word` get theirs; a
  // word not given stays as the page has it. Resolves to the words (empty when the server is out of reach).
  async function loadWords() {
    const list = (navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en']).join(',');
    let answer;
    try {
      const response = await fetch('/api/words?lang=' + encodeURIComponent(list), { credentials: 'same-origin' });
      if (!response.ok) return {};
      answer = await response.json();
    } catch (error) {
      return {};  // the page stays in English
    }
    const words = answer.words || {};
    document.documentElement.lang = answer.lang || 'en';
    document.documentElement.dir = answer.dir === 'rtl' ? 'rtl' : 'ltr';
    for (const element of document.querySelectorAll('[data-word]')) {
      const text = words[element.dataset.word];
      if (text) element.textContent = text;
    }
    return words;
  }

  return { clientId, loadWords };
})();
