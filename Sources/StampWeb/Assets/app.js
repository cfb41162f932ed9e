// stampcam serve: the server's own camera (/camera). Buttons, keys, swipes and taps become POSTs to
// the JSON API; the state comes back as Server-Sent Events and is drawn; the picture is the server's
// MJPEG stream. A phone's own camera is another page (phone.js).
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const app = $('app');
  const picture = $('picture');

  // Who this page is (this tab), so the server can tell the controlling browser from the others.
  const clientId = stampcam.clientId(sessionStorage);

  let state = null;
  let shownShots = -1;

  // --- the page's words in the browser's language (page.js) ------------------------------------
  let words = {};
  const word = (id, english) => words[id] || english;
  async function loadWords() {
    words = await stampcam.loadWords();
    if (state) render(state);  // the status line again, in these words
  }
  let noticeTimer = 0;

  // --- talking to the server ------------------------------------------------------------------

  async function post(path, body) {
    let response;
    try {
      response = await fetch(path, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'X-Stampcam-Client': clientId },
        body: JSON.stringify(body || {}),
      });
    } catch (error) {
      showNotice('stampcam does not answer (' + error.message + ')', true);
      return null;
    }
    let data = {};
    try { data = await response.json(); } catch (error) { /* an answer without JSON: the status says it */ }
    if (!response.ok) {
      showNotice(data.error || (response.status + ' ' + response.statusText), true);
      return null;
    }
    render(data);
    return data;
  }

  function connect() {
    const events = new EventSource('/api/events?client=' + encodeURIComponent(clientId));
    events.addEventListener('state', (event) => render(JSON.parse(event.data)));
    events.addEventListener('notice', (event) => {
      const notice = JSON.parse(event.data);
      showNotice(notice.text, notice.warning);
    });
    events.onopen = () => {
      if (!$('offline').hidden) restartPicture();
      $('offline').hidden = true;
    };
    events.onerror = () => { $('offline').hidden = false; };
  }

  function restartPicture() {
    picture.src = '/stream.mjpg?t=' + Date.now();
  }
  picture.addEventListener('error', () => setTimeout(restartPicture, 2000));

  // --- drawing the state ----------------------------------------------------------------------

  function render(next) {
    if (!next || typeof next.version !== 'number') return;
    if (state && next.version < state.version) return;  // an answer older than an event already shown
    state = next;
    app.dataset.phase = state.phase;

    $('style-name').textContent = state.style.name + '  ' + (state.style.index + 1) + '/' + state.style.count;
    const flashModes = state.flash.modes;
    $('flash').hidden = flashModes.length <= 1;
    $('flash-mode').textContent = state.flash.mode;
    $('flash').classList.toggle('on', state.flash.mode !== 'off');
    $('camera').hidden = state.camera.count <= 1;

    const zoom = $('zoom');
    $('zoom-row').hidden = state.zoom.max <= 1;
    zoom.max = String(state.zoom.max);
    if (document.activeElement !== zoom) zoom.value = String(state.zoom.factor);
    $('zoom-value').textContent = state.zoom.factor.toFixed(1) + '×';

    const status = $('status');
    let text = state.message || '';
    if (state.phase === 'capturing') text = word('taking', 'Taking the photo…');
    else if (state.phase === 'saving') text = word('saving', 'Saving…');
    else if (state.phase === 'reviewing' && !text) text = word('review', 'Use this photo, or retake it');
    status.textContent = text;
    status.classList.toggle('error', !!state.error);
    $('busy').hidden = state.phase !== 'capturing';
    $('busy').textContent = word('taking', 'Taking the photo…');

    const control = state.control;
    const watching = !control.mine && !control.free;
    $('control').hidden = !watching;
    $('control-text').textContent = watching ? control.holder + ' controls the camera; you see its picture.' : '';
    for (const button of app.querySelectorAll('.bar button, #fields-form input')) {
      if (button.id !== 'take-over') button.disabled = watching;
    }

    for (const key of ['user', 'project', 'location', 'note']) {
      const input = $('field-' + key);
      if (document.activeElement !== input && !pendingFields[key]) input.value = state.fields[key] || '';
    }
    const list = $('projects');
    if (list.dataset.projects !== JSON.stringify(state.projects)) {
      list.dataset.projects = JSON.stringify(state.projects);
      list.replaceChildren(...state.projects.map((name) => Object.assign(document.createElement('option'), { value: name })));
    }
    if (state.shots !== shownShots) {
      shownShots = state.shots;
      loadShots();
    }
  }

  async function loadShots() {
    let shots;
    try {
      const response = await fetch('/api/shots?limit=30', { credentials: 'same-origin' });
      if (!response.ok) return;
      shots = await response.json();
    } catch (error) {
      return;
    }
    $('shots').replaceChildren(...shots.map((shot) => {
      const link = document.createElement('a');
      link.href = shot.url;
      link.title = shot.name;
      link.addEventListener('click', (event) => {
        event.preventDefault();
        openViewer(shot);
      });
      const image = document.createElement('img');
      image.src = shot.thumbnail;
      image.alt = shot.name;
      image.loading = 'lazy';
      link.append(image);
      return link;
    }));
  }

  function openViewer(shot) {
    $('viewer-picture').src = shot.url;
    $('viewer-picture').alt = shot.name;
    $('viewer-save').href = shot.url;
    $('viewer-save').download = shot.name;
    $('viewer').hidden = false;
  }
  $('viewer-close').addEventListener('click', () => {
    $('viewer').hidden = true;
    $('viewer-picture').removeAttribute('src');
  });

  function showNotice(text, warning) {
    const notice = $('notice');
    notice.textContent = text;
    notice.style.color = warning ? '#ff8a80' : '#ffd54a';
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(() => { notice.textContent = ''; }, 8000);
  }

  // --- actions --------------------------------------------------------------------------------

  const live = () => state && ['viewfinder', 'saved', 'failed'].includes(state.phase);
  const reviewing = () => state && state.phase === 'reviewing';

  const actions = {
    shutter: () => post('/api/shutter'),
    retake: () => post('/api/retake'),
    use: () => post('/api/use'),
    style: (step) => post('/api/style', { step }),
    camera: () => post('/api/camera'),
    focus: (point) => post('/api/focus', point || {}),
    zoomStep: (step) => post('/api/zoom', { step }),
    flash: () => {
      const modes = state.flash.modes;
      const mode = modes[(modes.indexOf(state.flash.mode) + 1) % modes.length];
      return post('/api/flash', { mode });
    },
  };

  $('shutter').addEventListener('click', actions.shutter);
  $('retake').addEventListener('click', actions.retake);
  $('use').addEventListener('click', actions.use);
  $('style-prev').addEventListener('click', () => actions.style(-1));
  $('style-next').addEventListener('click', () => actions.style(1));
  $('flash').addEventListener('click', actions.flash);
  $('camera').addEventListener('click', actions.camera);
  $('take-over').addEventListener('click', () => post('/api/control'));
  $('zoom').addEventListener('change', (event) => post('/api/zoom', { factor: Number(event.target.value) }));

  // The fields panel: every edit reaches the live stamp shortly after typing stops.
  const pendingFields = {};
  let fieldsTimer = 0;
  function showFields(open) {
    $('fields').hidden = !open;
    app.classList.toggle('editing', open);
  }
  $('fields-button').addEventListener('click', () => showFields($('fields').hidden));
  $('fields-done').addEventListener('click', () => { sendFields(); showFields(false); });
  for (const key of ['user', 'project', 'location', 'note']) {
    $('field-' + key).addEventListener('input', (event) => {
      pendingFields[key] = event.target.value;
      clearTimeout(fieldsTimer);
      fieldsTimer = setTimeout(sendFields, 300);
    });
  }
  $('fields-form').addEventListener('submit', (event) => { event.preventDefault(); sendFields(); showFields(false); });
  function sendFields() {
    clearTimeout(fieldsTimer);
    const body = Object.assign({}, pendingFields);
    for (const key of Object.keys(pendingFields)) delete pendingFields[key];
    if (Object.keys(body).length) post('/api/fields', body);
  }

  // Swipe left or right on the picture for the next or previous style; tap it to focus there.
  let press = null;
  const stage = $('stage');
  stage.addEventListener('pointerdown', (event) => {
    press = { x: event.clientX, y: event.clientY, time: Date.now() };
  });
  stage.addEventListener('pointerup', (event) => {
    if (!press) return;
    const dx = event.clientX - press.x;
    const dy = event.clientY - press.y;
    const quick = Date.now() - press.time < 600;
    press = null;
    if (!state || !$('control').hidden) return;
    if (Math.abs(dx) > 50 && Math.abs(dx) > 1.5 * Math.abs(dy)) {
      actions.style(dx < 0 ? 1 : -1);
    } else if (Math.abs(dx) < 10 && Math.abs(dy) < 10 && quick && live()) {
      const point = pictureFraction(event.clientX, event.clientY);
      if (point) {
        showFocusRing(event.clientX, event.clientY);
        actions.focus(point);
      }
    }
  });
  stage.addEventListener('pointercancel', () => { press = null; });

  // Where on the photo a point of the screen is: the picture is letterboxed (object-fit: contain).
  function pictureFraction(clientX, clientY) {
    const box = picture.getBoundingClientRect();
    const width = picture.naturalWidth, height = picture.naturalHeight;
    if (!width || !height) return null;
    const scale = Math.min(box.width / width, box.height / height);
    const left = box.left + (box.width - width * scale) / 2;
    const top = box.top + (box.height - height * scale) / 2;
    const x = (clientX - left) / (width * scale), y = (clientY - top) / (height * scale);
    if (x < 0 || x > 1 || y < 0 || y > 1) return null;
    return { x: Math.round(x * 1000) / 1000, y: Math.round(y * 1000) / 1000 };
  }

  function showFocusRing(clientX, clientY) {
    const ring = $('focus-ring');
    const box = stage.getBoundingClientRect();
    ring.hidden = true;
    ring.style.left = (clientX - box.left) + 'px';
    ring.style.top = (clientY - box.top) + 'px';
    void ring.offsetWidth;  // restart the animation
    ring.hidden = false;
  }

  document.addEventListener('keydown', (event) => {
    if (event.target.closest && event.target.closest('input, textarea, select')) return;
    if (event.ctrlKey || event.metaKey || event.altKey || !state || !$('control').hidden) return;
    const keys = {
      ArrowLeft: () => actions.style(-1),
      ArrowRight: () => actions.style(1),
      ' ': () => live() && actions.shutter(),
      Enter: () => (reviewing() ? actions.use() : live() && actions.shutter()),
      u: () => reviewing() && actions.use(),
      r: () => (reviewing() || state.phase === 'failed') && actions.retake(),
      f: () => live() && state.flash.modes.length > 1 && actions.flash(),
      c: () => live() && state.camera.count > 1 && actions.camera(),
      a: () => live() && actions.focus(),
      '+': () => live() && actions.zoomStep(1),
      '=': () => live() && actions.zoomStep(1),
      '-': () => live() && actions.zoomStep(-1),
    };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  });

  // Start: the words, the state, then its changes as they happen, and the picture.
  loadWords();
  fetch('/api/state', { credentials: 'same-origin', headers: { 'X-Stampcam-Client': clientId } })
    .then((response) => response.json()).then(render).catch(() => { $('offline').hidden = false; });
  connect();
  restartPicture();
})();
