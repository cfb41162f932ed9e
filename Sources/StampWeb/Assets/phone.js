// stampcam serve: a phone's own camera. Over HTTPS the live picture is in the page (getUserMedia,
// the rear camera) with the stamp the server will draw laid over it (a transparent PNG the server
// renders for this phone's values, GET /api/overlay); over plain HTTP the shutter opens the phone's
// own camera app. The shutter sends the photo at full size; the server stamps it with its clock and
// this person's values and shows it back for Use or Retake (a style change restamps it).
// Photos taken while the server is out of reach wait on the phone (IndexedDB) and go later.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const app = $('app');
  const video = $('video');
  const overlay = $('overlay');
  const reviewPicture = $('review-picture');

  // Who this phone is, for a server without a team (a team member's token names them): kept for
  // good, so its values outlive a closed tab.
  const clientId = stampcam.clientId(localStorage);
  const headers = { 'X-Stampcam-Client': clientId };

  // --- words in the phone's language --------------------------------------------------------------
  let words = {};
  const word = (id, english) => words[id] || english;
  async function loadWords() {
    words = await stampcam.loadWords();
    if (me) showMe();
  }

  // --- talking to the server ----------------------------------------------------------------------
  async function call(path, body) {
    const options = { credentials: 'same-origin', headers: Object.assign({}, headers) };
    if (body !== undefined) {
      options.method = 'POST';
      options.headers['Content-Type'] = 'application/json';
      options.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, options);
    } catch (error) {
      setOffline(true);
      return null;
    }
    setOffline(false);
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      say(data.error || (response.status + ' ' + response.statusText), true);
      return null;
    }
    return data;
  }

  let sayTimer = 0;
  function say(text, warning) {
    const status = $('status');
    status.textContent = text;
    status.classList.toggle('error', !!warning);
    clearTimeout(sayTimer);
    if (text) sayTimer = setTimeout(() => { status.textContent = ''; }, 8000);
  }

  function setOffline(offline) {
    const was = !$('offline').hidden;
    $('offline').hidden = !offline;
    if (was && !offline) { flushQueue(); refreshOverlay(); }
  }

  // --- this phone's values ------------------------------------------------------------------------
  let me = null;
  function showMe() {
    const name = me.name || '';
    $('whose').textContent = name ? word('camera-of', '{name}\u2019s camera').replace('{name}', name) : word('this-camera', 'This phone\u2019s camera');
    $('whose-project').textContent = me.project || '';
    const style = me.style;
    $('style-name').textContent = style.name + '  ' + (style.index + 1) + '/' + me.styles.length;
    $('style-prev').disabled = me.styleLocked || me.styles.length < 2;
    $('style-next').disabled = me.styleLocked || me.styles.length < 2;
    const user = $('field-user');
    user.readOnly = me.nameLocked;
    if (document.activeElement !== user) user.value = name;
    const list = $('field-project-list'), input = $('field-project');
    const several = me.projects.length > 1 && !me.projectLocked;
    list.hidden = !several;
    input.hidden = several;
    input.readOnly = me.projectLocked;
    if (several && list.dataset.projects !== JSON.stringify(me.projects)) {
      list.dataset.projects = JSON.stringify(me.projects);
      list.replaceChildren(...me.projects.map((project) => Object.assign(document.createElement('option'), { value: project, textContent: project })));
    }
    if (several) list.value = me.project || me.projects[0];
    if (document.activeElement !== input) input.value = me.project || '';
    for (const key of ['location', 'note']) {
      const field = $('field-' + key);
      if (document.activeElement !== field) field.value = me[key] || '';
    }
    $('certificate-link').hidden = !me.authority;
    $('server-camera-link').hidden = !me.serverCamera;
  }

  async function loadMe() {
    const answer = await call('/api/me');
    if (!answer) return false;
    me = answer;
    measureClock(answer.serverTime);
    showMe();
    return true;
  }

  async function changeMe(change) {
    const answer = await call('/api/me', change);
    if (!answer) return;
    me = answer;
    showMe();
    refreshOverlay();
  }

  // The server's clock, as an offset from this phone's: the overlay is redrawn when its minute turns.
  let serverOffset = 0;
  function measureClock(text) {
    const time = Date.parse(text || '');
    if (time) serverOffset = time - Date.now();
  }
  function serverMinute() { return Math.floor((Date.now() + serverOffset) / 60000); }

  // --- where the phone is ---------------------------------------------------------------------------
  let position = null;
  let overlayPosition = null;
  if (window.isSecureContext && navigator.geolocation) {
    navigator.geolocation.watchPosition((found) => {
      position = found;
      // The stamp follows a move of more than a few metres, or a better (or worse) accuracy.
      const c = found.coords, last = overlayPosition;
      if (!last || Math.abs(c.latitude - last.latitude) > 2e-5 || Math.abs(c.longitude - last.longitude) > 2e-5
          || Math.abs((c.accuracy || 0) - (last.accuracy || 0)) > Math.max(3, 0.2 * (last.accuracy || 0))) refreshOverlay();
    }, () => { position = null; }, { enableHighAccuracy: true, maximumAge: 10000 });
  }

  // The position as the server reads it, with its age when sent.
  function whereNow() {
    if (!position) return {};
    const c = position.coords;
    const where = { latitude: String(c.latitude), longitude: String(c.longitude), position_time: String(position.timestamp) };
    if (c.accuracy != null) where.accuracy = String(c.accuracy);
    if (c.altitude != null) where.altitude = String(c.altitude);
    return where;
  }
  function withAge(fields, sentAt) {
    const result = {};
    for (const [key, value] of Object.entries(fields)) {
      if (key === 'position_time') result.position_age = String(Math.max(0, (sentAt - Number(value)) / 1000));
      else result[key] = value;
    }
    return result;
  }

  // --- the picture and the stamp over it ------------------------------------------------------------
  let stream = null;
  let mode = 'starting';  // live | nolive | sending | review
  function setMode(next) {
    mode = next;
    app.dataset.mode = next;
    $('busy').hidden = next !== 'sending';
    reviewPicture.hidden = !(next === 'review' || next === 'sending');
    video.hidden = next === 'nolive' || !reviewPicture.hidden;
    overlay.hidden = !(next === 'live' || next === 'nolive') || !overlay.src;
    $('no-live').hidden = next !== 'nolive';
    $('shutter').hidden = next === 'nolive';
    $('camera-app').hidden = next !== 'nolive';
    layout();
  }

  // The frame takes the picture's shape, as large as the stage allows: the stamp is laid out on it
  // as on the photo.
  function pictureSize() {
    if (!reviewPicture.hidden && reviewPicture.naturalWidth) return [reviewPicture.naturalWidth, reviewPicture.naturalHeight];
    if (stream && video.videoWidth) return [video.videoWidth, video.videoHeight];
    const landscape = innerWidth > innerHeight;
    return landscape ? [4, 3] : [3, 4];
  }
  function layout() {
    const stage = $('stage').getBoundingClientRect();
    const [w, h] = pictureSize();
    const scale = Math.min(stage.width / w, stage.height / h);
    const frame = $('frame');
    frame.style.width = Math.floor(w * scale) + 'px';
    frame.style.height = Math.floor(h * scale) + 'px';
    refreshOverlay();
  }
  addEventListener('resize', layout);
  video.addEventListener('loadedmetadata', layout);
  video.addEventListener('resize', layout);

  // The overlay, fetched again when what it shows changes: the minute, the position, the values,
  // the style, the frame's size. One at a time; the newest wins.
  let overlayKey = '';
  let overlayBusy = false;
  let overlayAgain = false;
  async function refreshOverlay(force) {
    if (!me || !me.uploads || (mode !== 'live' && mode !== 'nolive')) return;
    const frame = $('frame').getBoundingClientRect();
    const ratio = Math.min(window.devicePixelRatio || 1, 3);
    const w = Math.round(Math.min(4096, frame.width * ratio)), h = Math.round(Math.min(4096, frame.height * ratio));
    if (w < 16 || h < 16) return;
    const query = new URLSearchParams(Object.assign({ w: String(w), h: String(h), style: me.style.id }, withAge(whereNow(), Date.now())));
    const key = query.toString().replace(/&position_age=[^&]*/, '') + '|' + serverMinute() + '|' + JSON.stringify([me.project, me.location, me.note]);
    if (key === overlayKey && !force) return;
    if (overlayBusy) { overlayAgain = true; return; }
    overlayBusy = true;
    try {
      const response = await fetch('/api/overlay?' + query, { credentials: 'same-origin', headers });
      setOffline(false);
      if (response.ok) {
        const blob = await response.blob();
        const old = overlay.src;
        overlay.src = URL.createObjectURL(blob);
        if (old) URL.revokeObjectURL(old);
        overlayKey = key;
        overlay.hidden = !(mode === 'live' || mode === 'nolive');
      }
    } catch (error) {
      setOffline(true);
    } finally {
      overlayBusy = false;
      if (overlayAgain) { overlayAgain = false; refreshOverlay(); }
    }
  }
  setInterval(() => refreshOverlay(), 2000);  // the minute turning (the key changes), a lost answer

  async function openCamera() {
    const live = window.isSecureContext && navigator.mediaDevices && navigator.mediaDevices.getUserMedia;
    if (!live) { setMode('nolive'); return; }
    try {
      // The rear camera, as large as it goes: its frame is the photo where the phone has no still capture.
      stream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: { ideal: 'environment' }, width: { ideal: 4096 }, height: { ideal: 3072 } }, audio: false,
      });
    } catch (error) {
      $('no-live-text').textContent = word('no-camera', 'The camera cannot be opened here') + ' (' + error.message + ')';
      setMode('nolive');
      return;
    }
    video.srcObject = stream;
    setMode('live');
  }

  // The largest still the phone offers (ImageCapture where it exists), else the video's frame.
  async function grab() {
    const track = stream && stream.getVideoTracks()[0];
    if (track && 'ImageCapture' in window) {
      try {
        const capture = new ImageCapture(track);
        const capabilities = await capture.getPhotoCapabilities();
        const settings = {};
        if (capabilities.imageWidth && capabilities.imageWidth.max) {
          settings.imageWidth = capabilities.imageWidth.max;
          settings.imageHeight = capabilities.imageHeight.max;
        }
        const blob = await capture.takePhoto(settings);
        if (blob && blob.size) return blob;
      } catch (error) { /* the video's frame instead */ }
    }
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    canvas.getContext('2d').drawImage(video, 0, 0);
    return new Promise((done) => canvas.toBlob(done, 'image/jpeg', 0.95));
  }

  async function shutter() {
    if (mode !== 'live' || !video.videoWidth) return;
    const takenAt = new Date();
    const where = whereNow();
    reviewPicture.src = '';
    setMode('sending');
    const blob = await grab();
    if (!blob) { setMode('live'); say(word('no-frame', 'The camera gave no picture; try again'), true); return; }
    reviewPicture.src = URL.createObjectURL(blob);  // the frame while it is stamped
    const type = (blob.type || 'image/jpeg').split('/')[1] || 'jpeg';
    send(new File([blob], 'camera.' + (type === 'jpeg' ? 'jpg' : type), { type: blob.type || 'image/jpeg' }), 'shutter', takenAt, where);
  }

  // --- review -------------------------------------------------------------------------------------
  let underReview = null;

  function form(file, fields, sentAt) {
    const body = new FormData();
    for (const [key, value] of Object.entries(withAge(fields, sentAt))) body.append(key, value);
    body.append('photo', file, file.name || 'photo.jpg');
    return body;
  }

  async function send(file, kind, takenAt, where) {
    const fields = Object.assign({ kind, style: me ? me.style.id : '', file_name: file.name || 'photo.jpg' }, where);
    if (mode !== 'sending') setMode('sending');
    let response, data = {};
    try {
      response = await fetch('/api/photos', { method: 'POST', credentials: 'same-origin', headers, body: form(file, fields, Date.now()) });
      data = await response.json().catch(() => ({}));
    } catch (error) {
      // Out of reach: the photo waits on this phone with its time and position, and goes later.
      // The position's age is its age when the photo was taken: that is what it says of the photo.
      const kept = withAge(fields, takenAt.getTime());
      kept.phone_time = takenAt.toISOString().replace(/\.\d+Z$/, 'Z');
      kept.queued = '1';
      await queue.add({ file, fields: kept }).then(
        () => say(word('kept', 'No connection: the photo is kept on this phone and sent when stampcam answers'), true),
        () => say(word('lost', 'The photo did not reach stampcam; take it again'), true));
      setOffline(true);
      showQueued();
      backToLive();
      return;
    }
    setOffline(false);
    if (!response.ok) {
      say(data.error || (response.status + ' ' + response.statusText), true);
      backToLive();
      return;
    }
    showReview(data);
  }

  function reviewSize() {
    const stage = $('stage').getBoundingClientRect();
    return Math.round(Math.min(4096, Math.max(stage.width, stage.height) * Math.min(window.devicePixelRatio || 1, 3)));
  }

  function showReview(data) {
    underReview = data;
    const url = data.preview + '?fit=' + reviewSize() + '&v=' + encodeURIComponent(data.style) + '&client=' + encodeURIComponent(clientId);
    // Loaded aside, then shown: the frame being stamped stays until the stamped picture is here.
    const stamped = new Image();
    stamped.onload = () => {
      if (underReview !== data) return;  // retaken or restyled meanwhile
      const old = reviewPicture.src;
      reviewPicture.src = url;
      if (old.startsWith('blob:')) URL.revokeObjectURL(old);
      setMode('review');
      const said = [data.user, data.project, data.site].filter(Boolean).join(' · ');
      say([said].concat(data.notes || []).filter(Boolean).join(' — '), false);
    };
    stamped.onerror = () => { say(word('no-review', 'The stamped photo cannot be shown; retake it'), true); setMode('review'); };
    stamped.src = url;
  }

  function backToLive() {
    underReview = null;
    const old = reviewPicture.src;
    reviewPicture.removeAttribute('src');
    if (old.startsWith('blob:')) URL.revokeObjectURL(old);
    setMode(stream ? 'live' : 'nolive');
  }

  async function decide(choice) {
    if (!underReview) return;
    $('use').disabled = $('retake').disabled = true;
    const answer = await call('/api/photos/' + choice, { id: underReview.id });
    $('use').disabled = $('retake').disabled = false;
    if (!answer) return;  // kept under review (a full disk): try again or retake
    backToLive();
    if (choice === 'use') {
      say(word('saved-as', 'Saved as {name}').replace('{name}', answer.name), false);
      showLast(answer);
    }
  }

  async function restyle(step) {
    if (!underReview || me.styleLocked) return;
    setMode('sending');
    const answer = await call('/api/photos/restyle', { id: underReview.id, style: step });
    if (!answer) { setMode('review'); return; }
    await loadMe();
    showReview(answer);
  }

  function showLast(shot) {
    $('last').hidden = false;
    $('last-picture').src = shot.url + '?thumbnail=1';
    $('last').onclick = () => {
      $('viewer-picture').src = shot.url;
      $('viewer-save').href = shot.url;
      $('viewer-save').download = shot.name;
      $('viewer').hidden = false;
    };
  }
  $('viewer-close').addEventListener('click', () => {
    $('viewer').hidden = true;
    $('viewer-picture').removeAttribute('src');
  });

  // --- photos waiting on this phone for the server (IndexedDB) ---------------------------------------
  const queue = {
    open() {
      return new Promise((done, fail) => {
        const request = indexedDB.open('stampcam', 1);
        request.onupgradeneeded = () => request.result.createObjectStore('queue', { autoIncrement: true });
        request.onsuccess = () => done(request.result);
        request.onerror = () => fail(request.error);
      });
    },
    async run(access, work) {
      const db = await queue.open();
      return new Promise((done, fail) => {
        const transaction = db.transaction('queue', access);
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
    $('queued').textContent = (count === 1 ? word('waits-one', '1 photo waits on this phone for stampcam')
                                           : word('waits-many', '{count} photos wait on this phone for stampcam')).replace('{count}', count);
  }

  // The photos kept while out of reach, oldest first, each saved at once (the person saw it when
  // taking it), marked with its phone time beside the server's.
  let flushing = false;
  async function flushQueue() {
    if (flushing || !window.indexedDB) return;
    flushing = true;
    try {
      for (const key of await queue.keys()) {
        const item = await queue.get(key);
        if (!item) continue;
        const response = await fetch('/api/photos', {
          method: 'POST', credentials: 'same-origin', headers, body: form(item.file, Object.assign({ review: '0' }, item.fields), Date.now()),
        });
        const data = await response.json().catch(() => ({}));
        if (response.ok || response.status === 422 || response.status === 413) {
          await queue.remove(key);  // saved, or never will be: the answer says which
          if (response.ok) { say(word('sent-kept', 'Sent a kept photo: {name}').replace('{name}', data.name), false); showLast(data); }
          else say(data.error, true);
        } else {
          break;
        }
      }
      setOffline(false);
    } catch (error) {
      // Still out of reach.
    } finally {
      flushing = false;
      showQueued();
    }
  }
  addEventListener('online', flushQueue);
  setInterval(flushQueue, 10000);
  if ('serviceWorker' in navigator && window.isSecureContext) {
    navigator.serviceWorker.register('/sw.js').catch(() => { /* the page works without it, only not offline */ });
  }

  // --- buttons, swipes, fields ----------------------------------------------------------------------
  function fromFile(event) {
    const file = event.target.files && event.target.files[0];
    event.target.value = '';
    // A file the phone hands over (its camera app or its gallery): opened, not captured here.
    if (file) send(file, 'file', new Date(), whereNow());
  }
  $('gallery-input').addEventListener('change', fromFile);
  $('camera-input').addEventListener('change', fromFile);
  $('shutter').addEventListener('click', shutter);
  $('use').addEventListener('click', () => decide('use'));
  $('retake').addEventListener('click', () => decide('retake'));

  function stepStyle(step) {
    if (!me || me.styleLocked) return;
    if (mode === 'review') restyle(step);
    else if (mode === 'live' || mode === 'nolive') changeMe({ style: step });
  }
  $('style-prev').addEventListener('click', () => stepStyle(-1));
  $('style-next').addEventListener('click', () => stepStyle(1));
  let press = null;
  $('stage').addEventListener('pointerdown', (event) => { press = { x: event.clientX, y: event.clientY }; });
  $('stage').addEventListener('pointerup', (event) => {
    if (!press) return;
    const dx = event.clientX - press.x, dy = event.clientY - press.y;
    press = null;
    if (Math.abs(dx) > 50 && Math.abs(dx) > 1.5 * Math.abs(dy)) stepStyle(dx < 0 ? 1 : -1);
  });
  $('stage').addEventListener('pointercancel', () => { press = null; });
  document.addEventListener('keydown', (event) => {
    if (event.target.closest && event.target.closest('input, select, textarea')) return;
    const keys = {
      ArrowLeft: () => stepStyle(-1), ArrowRight: () => stepStyle(1),
      ' ': () => shutter(), Enter: () => (mode === 'review' ? decide('use') : shutter()),
      u: () => decide('use'), r: () => decide('retake'),
    };
    if (keys[event.key]) { event.preventDefault(); keys[event.key](); }
  });

  function showFields(open) {
    $('fields').hidden = !open;
    app.classList.toggle('editing', open);
    layout();
  }
  $('fields-button').addEventListener('click', () => showFields($('fields').hidden));
  let fieldsTimer = 0;
  const pending = {};
  function sendFields() {
    clearTimeout(fieldsTimer);
    const change = Object.assign({}, pending);
    for (const key of Object.keys(pending)) delete pending[key];
    if (Object.keys(change).length) changeMe(change);
  }
  for (const [id, key] of [['field-user', 'user'], ['field-project', 'project'], ['field-location', 'location'], ['field-note', 'note']]) {
    $(id).addEventListener('input', (event) => {
      if (event.target.readOnly) return;
      pending[key] = event.target.value;
      clearTimeout(fieldsTimer);
      fieldsTimer = setTimeout(sendFields, 400);
    });
  }
  $('field-project-list').addEventListener('change', (event) => changeMe({ project: event.target.value }));
  $('fields-done').addEventListener('click', () => { sendFields(); showFields(false); });
  $('fields-form').addEventListener('submit', (event) => { event.preventDefault(); sendFields(); showFields(false); });

  // Start: the words, this phone's values, the camera, the photos kept while offline.
  loadWords();
  loadMe().then(() => { openCamera(); showQueued(); flushQueue(); });
})();
