// stampcam serve: the lead's page (/team). The day's photos from the server's log as a timeline
// grouped by person or site, filters, the plan, a photo opened with its verdict, the downloads,
// and the team's people. Every value from the server is put in as text, never as markup.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  // The token came in the address; the server has put it in a cookie. Keep it out of the bar.
  if (/[?&]token=/.test(location.search)) history.replaceState(null, '', location.pathname);

  let words = {};
  const word = (id, english) => words[id] || english;
  async function loadWords() {
    const list = (navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en']).join(',');
    try {
      const response = await fetch('/api/words?lang=' + encodeURIComponent(list), { credentials: 'same-origin' });
      if (!response.ok) return;
      const answer = await response.json();
      words = answer.words || {};
      document.documentElement.lang = answer.lang || 'en';
      document.documentElement.dir = answer.dir === 'rtl' ? 'rtl' : 'ltr';
    } catch (error) {
      return;  // the page stays in English
    }
    for (const element of document.querySelectorAll('[data-word]')) {
      if (words[element.dataset.word]) element.textContent = words[element.dataset.word];
    }
    for (const element of document.querySelectorAll('[data-title]')) {
      if (words[element.dataset.title]) { element.title = words[element.dataset.title]; element.setAttribute('aria-label', words[element.dataset.title]); }
    }
    for (const element of document.querySelectorAll('[data-placeholder]')) {
      if (words[element.dataset.placeholder]) element.placeholder = words[element.dataset.placeholder];
    }
  }

  function make(tag, className, text) {
    const element = document.createElement(tag);
    if (className) element.className = className;
    if (text !== undefined && text !== null) element.textContent = text;
    return element;
  }

  function say(text, isError) {
    const status = $('status');
    status.textContent = text || '';
    status.classList.toggle('error', !!isError);
  }

  async function getJSON(path) {
    const response = await fetch(path, { credentials: 'same-origin' });
    let data = {};
    try { data = await response.json(); } catch (error) { /* the status says it */ }
    if (!response.ok) throw new Error(data.error || (response.status + ' ' + response.statusText));
    return data;
  }

  // --- the day ---------------------------------------------------------------------------------
  let day = null;         // the last answer of /api/team/day
  let shownKey = '';      // what the timeline shows, so a refresh that changes nothing redraws nothing
  let grouping = 'person';

  function filterQuery() {
    const parts = [];
    if ($('day').value) parts.push('day=' + encodeURIComponent($('day').value));
    for (const key of ['person', 'site', 'project']) {
      if ($(key).value) parts.push(key + '=' + encodeURIComponent($(key).value));
    }
    return parts.join('&');
  }

  async function fetchDay() {
    try {
      return await getJSON('/api/team/day?' + filterQuery());
    } catch (error) {
      say(error.message, true);
      return null;
    }
  }

  async function loadDay() { showDay(await fetchDay()); }

  function showDay(answer) {
    if (!answer) return;
    day = answer;
    if (!$('day').value) $('day').value = answer.day;
    $('next').disabled = answer.day >= answer.today;
    fillChoices('person', answer.people, answer.query);
    fillChoices('site', answer.sites, answer.query);
    fillChoices('project', answer.projects, answer.query);
    const key = JSON.stringify([answer.query, grouping, answer.total, answer.photos.map((p) => p.id + p.file)]);
    if (key !== shownKey) {
      shownKey = key;
      drawTimeline(answer);
      drawPlan(answer);
    }
    drawCount(answer);
  }

  // A select's choices: the day's values, and the one chosen even when the day has none of it.
  function fillChoices(id, values, query) {
    const select = $(id);
    const chosen = new URLSearchParams(query).get(id) || '';
    const all = values.slice();
    if (chosen && !all.includes(chosen)) all.unshift(chosen);
    const have = Array.from(select.options).slice(1).map((o) => o.value);
    if (JSON.stringify(have) === JSON.stringify(all)) { select.value = chosen; return; }
    while (select.options.length > 1) select.remove(1);
    for (const value of all) {
      const option = make('option', null, value);
      option.value = value;
      select.add(option);
    }
    select.value = chosen;
  }

  function drawCount(answer) {
    let count = String(answer.photos.length);
    if (answer.photos.length !== answer.total) count += ' / ' + answer.total;
    // Numbers, dates and zones stay left to right inside a right-to-left line.
    $('count').replaceChildren(word('photos', 'Photos') + ': ', make('bdi', null, count), ' · ',
                               make('bdi', null, answer.day + (answer.zone ? ' (' + answer.zone + ')' : '')));
    for (const id of ['report', 'kmz', 'csv']) $(id).disabled = answer.photos.length === 0;
    if (answer.leftOut > 0) say(word('too-many', 'More photos than a page lists: choose a person, a site or a project.'), true);
  }

  function drawTimeline(answer) {
    const timeline = $('timeline');
    timeline.replaceChildren();
    if (!answer.logged) { timeline.append(make('p', 'empty', word('no-log', 'This server keeps no photo log.'))); return; }
    if (answer.photos.length === 0) { timeline.append(make('p', 'empty', word('no-photos', 'No photos on this day.'))); return; }
    // One scale for every group: from the day's first photo's hour to the last's.
    const minutes = answer.photos.map((p) => p.minute);
    const first = Math.floor(Math.min(...minutes) / 60) * 60;
    const last = Math.min(24 * 60, Math.ceil((Math.max(...minutes) + 1) / 60) * 60);
    const span = Math.max(60, last - first);
    const groups = new Map();
    for (const photo of answer.photos) {
      const name = grouping === 'person' ? (photo.user || '') : (photo.site || '');
      if (!groups.has(name)) groups.set(name, []);
      groups.get(name).push(photo);
    }
    const names = Array.from(groups.keys()).sort((a, b) => (a === '') - (b === '') || a.localeCompare(b));
    const fragment = document.createDocumentFragment();
    for (const name of names) {
      const photos = groups.get(name);
      const group = make('section', 'group');
      const heading = make('h2', null, name || (grouping === 'person' ? word('nobody', 'Nobody named') : word('no-site', 'No site')));
      heading.append(make('span', 'n', String(photos.length)));
      group.append(heading);
      const strip = make('div', 'strip');
      strip.setAttribute('aria-hidden', 'true');
      const start = make('span', 'hour', String(first / 60).padStart(2, '0') + ':00');
      const end = make('span', 'hour end', String(last / 60).padStart(2, '0') + ':00');
      strip.append(start, end);
      for (const photo of photos) {
        const tick = make('span', 'tick');
        tick.style.insetInlineStart = (100 * (photo.minute - first) / span).toFixed(2) + '%';
        strip.append(tick);
      }
      group.append(strip);
      const list = make('ol', 'photos');
      for (const photo of photos) list.append(tile(photo));
      group.append(list);
      fragment.append(group);
    }
    timeline.append(fragment);
    // For the benchmark and the tests: the timeline is on screen once the next frame is painted.
    requestAnimationFrame(() => setTimeout(() => { performance.mark('timeline-painted'); document.body.dataset.painted = answer.query; }, 0));
  }

  function tile(photo) {
    const item = make('li');
    const button = make('button', 'photo' + (photo.file === 'ok' ? '' : ' problem'));
    button.type = 'button';
    button.dataset.id = photo.id;
    const image = make('img');
    image.loading = 'lazy';
    image.decoding = 'async';
    image.alt = photo.name;
    image.src = photo.thumbnail;
    image.addEventListener('error', () => button.classList.add('problem'), { once: true });
    button.append(image, make('span', 'num', String(photo.number)));
    if (photo.file !== 'ok') button.append(make('span', 'flag', '!'));
    const caption = make('span', 'caption');
    // The caption says what the group does not: where (by person) or who (by site), else the note.
    const where = photo.site || photo.note || photo.place || '';
    const other = grouping === 'person' ? where : (photo.user || photo.note || '');
    caption.append(make('span', 'when', photo.time), make('span', 'where', other || '\u00a0'));
    button.append(caption);
    button.addEventListener('click', () => openPhoto(photo));
    item.append(button);
    return item;
  }

  function drawPlan(answer) {
    const box = $('plan-box');
    if (!answer.plan) { box.hidden = true; $('plan').removeAttribute('src'); return; }
    box.hidden = false;
    $('plan').src = answer.plan;
  }

  // --- one photo -------------------------------------------------------------------------------
  const verdictWords = {
    valid: ['lead-verdict-valid', 'Signed by this server and unchanged'],
    untrusted: ['lead-verdict-untrusted', 'Signed, by a signer this server does not trust'],
    expired: ['lead-verdict-expired', 'Signed with a certificate that has expired'],
    noCredentials: ['lead-verdict-noCredentials', 'No credentials: it proves nothing about where or when'],
    changed: ['lead-verdict-changed', 'Changed since it was signed'],
    invalid: ['lead-verdict-invalid', 'The signature is not valid'],
  };

  async function openPhoto(photo) {
    const viewer = $('viewer');
    $('full').removeAttribute('src');
    $('full').alt = photo.name;
    $('verdict').textContent = word('loading', 'Loading…');
    $('verdict').className = 'verdict';
    $('verdict-detail').textContent = '';
    $('rows').replaceChildren();
    if (!viewer.open) viewer.showModal();
    let opened;
    try {
      opened = await getJSON('/api/team/photo?id=' + encodeURIComponent(photo.id));
    } catch (error) {
      $('verdict').textContent = error.message;
      $('verdict').className = 'verdict problem';
      return;
    }
    if (opened.image) $('full').src = opened.image;
    const verdict = $('verdict'), detail = $('verdict-detail');
    if (opened.file !== 'ok') {
      verdict.className = 'verdict problem';
      verdict.textContent = opened.file === 'missing' ? word('file-missing', 'The file is no longer where it was logged')
        : opened.file === 'changed' ? word('file-changed', 'The file was changed after it was logged') : (opened.problem || '');
      detail.textContent = opened.problem || '';
    } else if (opened.verification) {
      const v = opened.verification;
      const [id, english] = verdictWords[v.outcome] || ['', v.outcome];
      verdict.className = 'verdict ' + v.outcome;
      verdict.textContent = word(id, english);
      const lines = [];
      if (v.signer) lines.push(word('signer', 'Signer') + ': ' + v.signer);
      if (v.codeMatches === true) lines.push(word('code-matches', 'The code matches the fields and the picture'));
      if (v.codeMatches === false) lines.push(word('code-differs', 'The code does not match'));
      if (v.problem) lines.push(v.problem);
      detail.textContent = lines.join(' · ');
    }
    const rows = $('rows');
    for (const row of opened.rows) {
      if (!row.value) continue;
      const tr = make('tr');
      tr.append(make('th', null, row.label), make('td', null, row.value));
      rows.append(tr);
    }
  }

  // --- downloads -------------------------------------------------------------------------------
  async function download(path, fallbackName, button) {
    button.disabled = true;
    say(word('making', 'Making the file…'));
    try {
      const response = await fetch(path + '?' + (day ? day.query : filterQuery()), { credentials: 'same-origin' });
      if (!response.ok) {
        let data = {};
        try { data = await response.json(); } catch (error) { /* the status says it */ }
        throw new Error(data.error || (response.status + ' ' + response.statusText));
      }
      const blob = await response.blob();
      const disposition = response.headers.get('Content-Disposition') || '';
      const name = (/filename="([^"]+)"/.exec(disposition) || [])[1] || fallbackName;
      const link = make('a');
      link.href = URL.createObjectURL(blob);
      link.download = name;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 60000);
      say(name);
    } catch (error) {
      say(error.message, true);
    } finally {
      button.disabled = false;
    }
  }

  // --- people ----------------------------------------------------------------------------------
  async function loadPeople() {
    let answer;
    try { answer = await getJSON('/api/team/people'); } catch (error) { say(error.message, true); return; }
    $('add').hidden = !answer.team;
    $('no-team').hidden = answer.team;
    const list = $('people');
    list.replaceChildren();
    for (const person of answer.people) {
      const item = make('li');
      const who = make('span', 'who', person.name + (person.you ? ' (' + word('you', 'you') + ')' : ''));
      if (person.project) who.append(make('span', 'project', person.project));
      item.append(who);
      if (person.lead) item.append(make('span', 'role', word('lead', 'Lead')));
      const show = make('button', 'chip', word('link', 'Link'));
      show.type = 'button';
      show.addEventListener('click', () => showLink(person));
      item.append(show);
      if (!person.you) {
        const remove = make('button', 'chip', word('remove', 'Remove'));
        remove.type = 'button';
        remove.addEventListener('click', () => removePerson(person.name));
        item.append(remove);
      }
      list.append(item);
    }
  }

  function showLink(person) {
    $('qr-name').textContent = person.name;
    $('qr').src = person.qr;
    $('qr-link').textContent = person.link;
    $('qr-view').showModal();
  }

  async function post(path, body) {
    const response = await fetch(path, {
      method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    });
    let data = {};
    try { data = await response.json(); } catch (error) { /* the status says it */ }
    if (!response.ok) throw new Error(data.error || (response.status + ' ' + response.statusText));
    return data;
  }

  async function removePerson(name) {
    if (!confirm(word('remove', 'Remove') + ': ' + name + '?')) return;
    try { await post('/api/team/people/remove', { name }); say(''); } catch (error) { say(error.message, true); }
    loadPeople();
  }

  $('add').addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = { name: $('new-name').value, project: $('new-project').value || null, lead: $('new-lead').checked };
    try {
      const person = await post('/api/team/people', body);
      $('add').reset();
      say('');
      await loadPeople();
      showLink(person);
    } catch (error) {
      say(error.message, true);
    }
  });

  // --- wiring ----------------------------------------------------------------------------------
  function shiftDay(days) {
    const current = $('day').value || (day && day.day);
    if (!current) return;
    const date = new Date(current + 'T12:00:00Z');
    date.setUTCDate(date.getUTCDate() + days);
    $('day').value = date.toISOString().slice(0, 10);
    loadDay();
  }
  $('previous').addEventListener('click', () => shiftDay(-1));
  $('next').addEventListener('click', () => shiftDay(1));
  $('today').addEventListener('click', () => { $('day').value = day ? day.today : ''; loadDay(); });
  $('day').addEventListener('change', loadDay);
  for (const id of ['person', 'site', 'project']) $(id).addEventListener('change', loadDay);
  for (const [id, value] of [['by-person', 'person'], ['by-site', 'site']]) {
    $(id).addEventListener('click', () => {
      grouping = value;
      $('by-person').classList.toggle('on', value === 'person');
      $('by-site').classList.toggle('on', value === 'site');
      $('by-person').setAttribute('aria-pressed', String(value === 'person'));
      $('by-site').setAttribute('aria-pressed', String(value === 'site'));
      if (day) { shownKey = ''; loadDay(); }
    });
  }
  $('report').addEventListener('click', () => download('/api/team/report.pdf', 'report.pdf', $('report')));
  $('kmz').addEventListener('click', () => download('/api/team/photos.kmz', 'photos.kmz', $('kmz')));
  $('csv').addEventListener('click', () => download('/api/team/photos.csv', 'photos.csv', $('csv')));
  $('viewer-close').addEventListener('click', () => $('viewer').close());
  $('qr-close').addEventListener('click', () => $('qr-view').close());

  // Today's photos arrive while the page is open: look again now and then while it is seen.
  setInterval(() => {
    if (document.visibilityState === 'visible' && day && day.day === day.today) loadDay();
  }, 20000);

  // The words and the day are asked for at once; the day is drawn in the words.
  const wordsLoaded = loadWords();
  Promise.all([wordsLoaded, fetchDay()]).then(([, answer]) => showDay(answer));
  wordsLoaded.then(loadPeople);
})();
