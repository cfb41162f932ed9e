'use strict';
// The check page: a photo is posted to /verify and judged on the server (never kept); a code is
// looked up in the organisation's photo log. Words come from /verify/words in the browser's language.
(() => {
  const $ = (id) => document.getElementById(id);
  let words = {};
  let lang = 'en';
  let org = '';
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (all, name) => (name in values ? values[name] : all));
  const word = (id, values = {}) => fill(words[id] || id, Object.assign({ org }, values));

  // An ISO 8601 time with its offset, in the visitor's language, in the photo's own zone.
  function when(iso) {
    const match = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d))?(?:\.\d+)?(Z|[+-]\d\d:\d\d)?$/.exec(iso || '');
    if (!match) return iso || '';
    const [, y, mo, d, h, mi, s, zone] = match;
    const wall = new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +(s || 0)));
    const text = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(wall);
    return zone ? `${text} (${zone === 'Z' ? 'UTC' : zone})` : text;
  }

  function reset(outcome) {
    const result = $('result');
    result.hidden = false;
    result.className = outcome || '';
    for (const id of ['stamped', 'logged', 'facts', 'compare', 'thumbnail', 'more']) $(id).hidden = true;
    $('facts').replaceChildren();
  }

  function showLog(log) {
    if (!log) return;
    const key = { found: 'code-found', notFound: 'code-not-found', malformed: 'code-malformed' }[log.answer] || 'code-not-found';
    $('logged').textContent = word(key, { code: log.code });
    $('logged').hidden = false;
    const facts = $('facts');
    for (const name of ['time', 'project', 'site', 'place', 'user']) {
      if (!log.facts || !(name in log.facts)) continue;
      const dt = document.createElement('dt');
      dt.textContent = word('fact-' + name);
      const dd = document.createElement('dd');
      dd.textContent = name === 'time' ? when(log.facts[name]) : log.facts[name];
      facts.append(dt, dd);
    }
    facts.hidden = !facts.children.length;
    if (log.thumbnail) {
      $('thumbnail').src = log.thumbnail;
      $('thumbnail').hidden = false;
      $('compare').hidden = false;
    }
  }

  function showVerdict(verdict) {
    reset(verdict.outcome);
    const key = { valid: 'verdict-valid', untrusted: 'verdict-untrusted', expired: 'verdict-expired', changed: 'verdict-changed',
      invalid: 'verdict-invalid', noCredentials: 'verdict-none' }[verdict.outcome] || 'verdict-unreadable';
    $('sentence').textContent = word(key, { time: when(verdict.time || verdict.timeStamped), signer: verdict.signer || '?' });
    if (verdict.timeStamped) {
      $('stamped').textContent = word('verdict-time-stamped', { time: when(verdict.timeStamped) });
      $('stamped').hidden = false;
    }
    showLog(verdict.log);
    if (verdict.problem) {
      $('problem').textContent = verdict.problem;
      $('more').hidden = false;
    }
  }

  function showRefusal(response) {
    reset('invalid');
    $('sentence').textContent = word(response.status === 429 ? 'check-too-many' : response.status === 413 ? 'check-too-large' : 'verdict-unreadable');
  }

  async function checkPhoto(file) {
    if (!file) return;
    reset('');
    $('sentence').textContent = word('check-checking');
    const form = new FormData();
    form.append('photo', file, file.name || 'photo.jpg');
    try {
      const response = await fetch('/verify', { method: 'POST', body: form, headers: { Accept: 'application/json' } });
      if (!response.ok) return showRefusal(response);
      showVerdict(await response.json());
    } catch (error) {
      showRefusal({ status: 0 });
    }
  }

  async function checkCode(typed) {
    const code = typed.trim();
    if (!code) return;
    reset('');
    $('sentence').textContent = word('check-checking');
    try {
      const response = await fetch('/verify?code=' + encodeURIComponent(code), { headers: { Accept: 'application/json' } });
      if (!response.ok) return showRefusal(response);
      const log = await response.json();
      reset(log.answer === 'found' ? 'valid' : log.answer === 'malformed' ? 'none' : 'changed');
      $('sentence').textContent = '';
      showLog(log);
      $('sentence').textContent = $('logged').textContent;
      $('logged').hidden = true;
    } catch (error) {
      showRefusal({ status: 0 });
    }
  }

  async function start() {
    try {
      const [answer, about] = await Promise.all([
        fetch('/verify/words').then((r) => r.json()),
        fetch('/verify', { headers: { Accept: 'application/json' } }).then((r) => r.json()),
      ]);
      words = answer.words || {};
      lang = answer.lang || 'en';
      org = about.organization || '';
      document.documentElement.lang = lang;
      document.documentElement.dir = answer.dir === 'rtl' ? 'rtl' : 'ltr';
      if (about.codes === false) $('code-form').hidden = true;
    } catch (error) { /* the page stays in English */ }
    for (const element of document.querySelectorAll('[data-word]')) {
      if (words[element.dataset.word]) element.textContent = word(element.dataset.word);
    }
    document.title = word('check-title');
    const drop = $('drop');
    $('photo').addEventListener('change', (event) => checkPhoto(event.target.files[0]));
    for (const name of ['dragenter', 'dragover']) {
      document.addEventListener(name, (event) => { event.preventDefault(); drop.classList.add('over'); });
    }
    document.addEventListener('dragleave', () => drop.classList.remove('over'));
    document.addEventListener('drop', (event) => {
      event.preventDefault();
      drop.classList.remove('over');
      checkPhoto(event.dataTransfer.files[0]);
    });
    $('code-form').addEventListener('submit', (event) => { event.preventDefault(); checkCode($('code').value); });
    const given = new URLSearchParams(location.search).get('code');
    if (given) {
      $('code').value = given;
      checkCode(given);
    }
  }

  start();
})();
