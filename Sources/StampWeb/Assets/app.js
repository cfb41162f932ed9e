// stampcam serve: the page. Buttons, keys, swipes and taps become POSTs to the JSON API; the
// state comes back as Server-Sent Events and is drawn; the picture is the server's MJPEG stream.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const app = $('app');
  const picture = $('picture');

  // Who this page is, so the server can tell the controlling browser from the others.
  const clientId = (() => {
    const fresh = () => Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');
    try {
      let id = sessionStorage.getItem('stampcam-client');
      if (!id) { id = fresh(); sessionStorage.setItem('stampcam-client', id); }
      return id;
    } catch (e) {
      return fresh();
    }
  })();

  // The access token came in the address; the server has put it in a cookie. Keep it out of the
  // address bar, the history and screenshots.
  if (/[?&]token=/.test(location.search)) history.replaceState(null, '', location.pathname);

  let state = null;
  let shownShots = -1;

  // --- the page's words in the browser's language ----------------------------------------------
  // The server has them in every language it has a catalogue for; it picks the best of the
  // browser's list (English when none fits). A word not given stays as the page has it.
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
      const text = words[element.dataset.word];
      if (text) element.textContent = text;
    }
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
      flushQueue();
    };
    events.onerror = () => { $('offline').hidden = false; };
  }

  function restartPicture() {
    picture.src = '/stream.mjpg?t=' + Date.now();
  }
  picture.addEventListener('error', () => setTimeout(restartPicture, 2000));

  // --- photos from this phone's own camera ---------------------------------------------------
  // The photo goes to the server as it is; the server stamps it with its own clock, the name the
  // link gives and where the phone says it is, and shows it back for Use or Retake.

  let position = null;
  if (window.isSecureContext && navigator.geolocation) {
    navigator.geolocation.watchPosition((found) => { position = found; }, () => { position = null; },
      { enableHighAccuracy: true, maximumAge: 10000 });
  }
  let underReview = null;

  function showUpload(text, picture) {
    $('upload').hidden = false;
    $('upload-status').textContent = text;
    const busy = !picture;
    $('upload-use').disabled = busy;
    $('upload-retake').disabled = busy;
    if (picture) $('upload-picture').src = picture;
    else $('upload-picture').removeAttribute('src');
  }

  // Where the phone was, as the form sends it (read when the photo is taken, not when it is sent).
  function whereNow() {
    if (!position) return {};
    const where = {
      latitude: String(position.coords.latitude), longitude: String(position.coords.longitude),
      position_time: String(position.timestamp),
    };
    if (position.coords.accuracy != null) where.accuracy = String(position.coords.accuracy);
    if (position.coords.altitude != null) where.altitude = String(position.coords.altitude);
    return where;
  }

  function photoForm(file, fields, sentAt) {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) {
      if (key === 'position_time') form.append('position_age', String(Math.max(0, (sentAt - Number(value)) / 1000)));
      else form.append(key, value);
    }
    form.append('photo', file, file.name || 'photo.jpg');
    return form;
  }

  async function sendPhoto(file) {
    const fields = whereNow();
    const takenAt = new Date();
    showUpload('Sending the photo to stampcam…', null);
    let response, data = {};
    try {
      response = await fetch('/api/photos', {
        method: 'POST', credentials: 'same-origin', headers: { 'X-Stampcam-Client': clientId },
        body: photoForm(file, fields, Date.now()),
      });
      data = await response.json();
    } catch (error) {
      // Out of reach: the photo waits on this phone, marked with the phone's time, and goes later.
      $('upload').hidden = true;
      fields.phone_time = takenAt.toISOString().replace(/\.\d+Z$/, 'Z');  // whole seconds, as the server reads them
      await queue.add({ file, fields }).then(
        () => showNotice('No connection: the photo is kept on this phone and sent when stampcam is reachable', true),
        () => showNotice('The photo did not reach stampcam (' + error.message + '); take it again', true));
      showQueued();
      return;
    }
    if (!response.ok) {
      $('upload').hidden = true;
      showNotice(data.error || (response.status + ' ' + response.statusText), true);
      return;
    }
    underReview = data.id;
    person = data.user || person;
    const said = [data.user, data.site].filter(Boolean).join(' · ');
    showUpload([said].concat(data.notes || []).filter(Boolean).join(' — ') || data.name,
               data.preview + '?client=' + encodeURIComponent(clientId));
  }

  async function reviewUpload(choice) {
    if (!underReview) return;
    const id = underReview;
    $('upload-use').disabled = true;
    $('upload-retake').disabled = true;
    const response = await fetch('/api/photos/' + choice, {
      method: 'POST', credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-Stampcam-Client': clientId }, body: JSON.stringify({ id }),
    }).catch(() => null);
    const data = response ? await response.json().catch(() => ({})) : {};
    if (!response || !response.ok) {
      // Kept under review (a full disk): the person can try again or retake.
      showUpload((data && data.error) || 'stampcam does not answer; try again', $('upload-picture').src);
      return;
    }
    underReview = null;
    $('upload').hidden = true;
    if (choice === 'use') {
      showNotice('Saved as ' + data.name, false);
      loadShots();
    } else {
      $('photo-input').click();
    }
  }

  // --- this phone's camera, live (getUserMedia: HTTPS only) ------------------------------------
  // The picture with what the stamp will say drawn over it: the server's time (its clock, read from
  // its answers), the person and where the phone is. The shutter sends the frame as a photo.

  let serverOffset = 0;  // the server's clock minus this phone's
  let liveStream = null;
  let stampTimer = 0;
  let person = null;

  async function measureClock() {
    const response = await fetch('/api/state', { credentials: 'same-origin' }).catch(() => null);
    const date = response && Date.parse(response.headers.get('Date') || '');
    if (date) serverOffset = date - Date.now();
  }

  function drawLiveStamp() {
    const two = (n) => String(n).padStart(2, '0');
    const now = new Date(Date.now() + serverOffset);
    const lines = [now.getFullYear() + '-' + two(now.getMonth() + 1) + '-' + two(now.getDate()) + ' ' + two(now.getHours()) + ':'
                   + two(now.getMinutes()) + ':' + two(now.getSeconds())];
    if (person) lines.push(person);
    if (position) {
      const c = position.coords;
      lines.push(c.latitude.toFixed(5) + ', ' + c.longitude.toFixed(5) + (c.accuracy != null ? ' ±' + Math.round(c.accuracy) + ' m' : ''));
    }
    $('live-stamp').textContent = lines.join('\n');
  }

  async function openCamera() {
    try {
      liveStream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: 'environment', width: { ideal: 1920 }, height: { ideal: 1080 } }, audio: false,
      });
    } catch (error) {
      showNotice('The camera cannot be opened (' + error.message + '); use Take photo', true);
      return;
    }
    $('live-video').srcObject = liveStream;
    $('camera-live').hidden = false;
    measureClock();
    drawLiveStamp();
    stampTimer = setInterval(drawLiveStamp, 1000);
  }

  function closeCamera() {
    clearInterval(stampTimer);
    if (liveStream) liveStream.getTracks().forEach((track) => track.stop());
    liveStream = null;
    $('live-video').srcObject = null;
    $('camera-live').hidden = true;
  }

  function liveShutter() {
    const video = $('live-video');
    if (!video.videoWidth) return;
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    canvas.getContext('2d').drawImage(video, 0, 0);
    canvas.toBlob((blob) => {
      closeCamera();
      if (blob) sendPhoto(new File([blob], 'camera.jpg', { type: 'image/jpeg' }));
    }, 'image/jpeg', 0.92);
  }

  if (window.isSecureContext && navigator.mediaDevices && navigator.mediaDevices.getUserMedia) {
    $('live-camera').hidden = false;
    $('live-camera').addEventListener('click', openCamera);
    $('live-close').addEventListener('click', closeCamera);
    $('live-shutter').addEventListener('click', liveShutter);
  }

  // --- photos waiting on this phone (IndexedDB) for the server to be reachable ------------------

  const queue = {
    open() {
      return new Promise((done, fail) => {
        const request = indexedDB.open('stampcam', 1);
        request.onupgradeneeded = () => request.result.createObjectStore('queue', { autoIncrement: true });
        request.onsuccess = () => done(request.result);
        request.onerror = () => fail(request.error);
      });
    },
    async run(mode, work) {
      const db = await queue.open();
      return new Promise((done, fail) => {
        const transaction = db.transaction('queue', mode);
        const result = work(transaction.objectStore('queue'));
        transaction.oncomplete = () => done(result.result);
        transaction.onerror = () => fail(transaction.error);
      });
    },
    add(item) { return queue.run('readwrite', (store) => store.add(item)); },
    keys() { return queue.run('readonly', (store) => store.getAllKeys()); },
    get(key) { return queue.run('readonly', (store) => store.get(key)); },
    remove(key) { return queue.run('readwrite', (store) => store.delete(key)); },
  };

  async function showQueued() {
    const count = await queue.keys().then((keys) => keys.length, () => 0);
    $('queued').hidden = count === 0;
    $('queued').textContent = count === 1 ? '1 photo waits on this phone for stampcam'
                                          : count + ' photos wait on this phone for stampcam';
  }

  // Sends the photos kept while out of reach, oldest first; each is saved at once (no review: the
  // person saw it when taking it) and marked with its phone time beside the server's.
  let flushing = false;
  async function flushQueue() {
    if (flushing || !window.indexedDB) return;
    flushing = true;
    try {
      for (const key of await queue.keys()) {
        const item = await queue.get(key);
        if (!item) continue;
        const form = photoForm(item.file, Object.assign({ review: '0' }, item.fields), Date.now());
        const response = await fetch('/api/photos', {
          method: 'POST', credentials: 'same-origin', headers: { 'X-Stampcam-Client': clientId }, body: form,
        });
        const data = await response.json().catch(() => ({}));
        if (response.ok || response.status === 422 || response.status === 413) {
          await queue.remove(key);  // saved, or never will be: the answer says which
          showNotice(response.ok ? 'Sent a kept photo: ' + data.name : 'A kept photo was refused: ' + data.error, !response.ok);
        } else {
          break;  // try again later
        }
      }
    } catch (error) {
      // Still out of reach.
    } finally {
      flushing = false;
      showQueued();
    }
  }
  window.addEventListener('online', flushQueue);
  setInterval(flushQueue, 15000);
  if ('serviceWorker' in navigator && window.isSecureContext) {
    navigator.serviceWorker.register('/sw.js').catch(() => { /* the page works without it, only not offline */ });
  }

  $('photo-input').addEventListener('change', (event) => {
    const file = event.target.files && event.target.files[0];
    event.target.value = '';
    if (file) sendPhoto(file);
  });
  $('upload-use').addEventListener('click', () => reviewUpload('use'));
  $('upload-retake').addEventListener('click', () => reviewUpload('retake'));

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
