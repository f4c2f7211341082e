// The dashboard's only script (served from this app; the CSP allows nothing else).
// Copy and reveal buttons, example-prompt chips, live progress for tasks still rendering, and karaoke lyrics.

function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'offscreen';
  document.body.appendChild(area);
  area.select();
  document.execCommand('copy');
  area.remove();
  return Promise.resolve();
}

function setUpCopyButtons() {
  for (const button of document.querySelectorAll('[data-copy]')) {
    button.addEventListener('click', () => {
      const source = document.getElementById(button.dataset.copy);
      if (!source) return;
      copyText(source.textContent.trim()).then(() => {
        const label = button.textContent;
        button.textContent = 'Copied';
        setTimeout(() => {
          button.textContent = label;
        }, 1500);
      });
    });
  }
}

/** Shows or hides a secret shown masked: the button names an element holding the value (hidden until revealed). */
function setUpRevealButtons() {
  for (const button of document.querySelectorAll('[data-reveal]')) {
    const value = document.getElementById(button.dataset.reveal);
    const masked = value?.parentElement.querySelector('[data-role="masked"]');
    if (!value || !masked) continue;
    button.addEventListener('click', () => {
      const show = value.hidden;
      value.hidden = !show;
      masked.hidden = show;
      button.textContent = show ? 'Hide' : 'Reveal';
      button.setAttribute('aria-pressed', String(show));
    });
  }
}

function setUpChips() {
  for (const chip of document.querySelectorAll('[data-fill]')) {
    chip.addEventListener('click', () => {
      const target = document.getElementById(chip.dataset.fill);
      if (!target) return;
      target.value = chip.textContent;
      target.focus();
    });
  }
}

/** A checkbox with data-hides="id" hides that block while checked, and disables its fields so they are not sent. */
function setUpHiders() {
  for (const box of document.querySelectorAll('input[type="checkbox"][data-hides]')) {
    const block = document.getElementById(box.dataset.hides);
    if (!block) continue;
    box.addEventListener('change', () => {
      block.hidden = box.checked;
      for (const field of block.querySelectorAll('textarea, input, select')) field.disabled = box.checked;
    });
  }
}

/** Karaoke: while a card's track plays, the lyric line whose [data-start, data-end) holds the time is lit. */
function setUpKaraoke(sheet) {
  const card = sheet.closest('.gen-card');
  const audio = card?.querySelector('audio');
  if (!audio) return;
  const scroller = sheet.querySelector('.lyrics-scroll');
  const lines = [...sheet.querySelectorAll('.lyric-line')].map((element) => ({
    element,
    start: Number(element.dataset.start),
    end: Number(element.dataset.end),
  }));
  let current = null;
  const show = () => {
    const time = audio.currentTime;
    const line = lines.find((l) => time >= l.start && time < l.end) || null;
    if (line === current) return;
    if (current) {
      current.element.classList.remove('is-current');
      current.element.removeAttribute('aria-current');
    }
    current = line;
    if (!line) return;
    line.element.classList.add('is-current');
    line.element.setAttribute('aria-current', 'true');
    // Scroll the lyrics box only, never the page, so the sung line stays in its upper third.
    if (scroller) scroller.scrollTop = line.element.offsetTop - scroller.clientHeight / 3;
  };
  for (const event of ['timeupdate', 'seeked', 'ended']) audio.addEventListener(event, show);
  for (const line of lines) {
    line.element.addEventListener('click', () => {
      audio.currentTime = line.start;
      if (audio.paused) audio.play().catch(() => undefined);
    });
  }
}

/** How long one status request may wait for a change; the bar moves in between from the estimate. */
const WAIT_SECONDS = 25;
/**
 * A browser holds about 6 connections to a site: only this many cards keep a long poll open, so the page's
 * other requests (audio, navigation) never queue behind them; the others ask every SHORT_POLL_MS.
 */
const LONG_POLLS = 2;
const SHORT_POLL_MS = 5000;
const TICK_MS = 500;
const RETRY_MS = 5000;

/**
 * Follows a task in progress: long-polls its status JSON (the answer comes when the status changes, or after
 * WAIT_SECONDS), moves the bar in between from the estimated time left, and reloads the page once it is finished.
 */
function watch(card, long) {
  const url = long ? `${card.dataset.poll}?wait=${WAIT_SECONDS}` : card.dataset.poll;
  const bar = card.querySelector('[data-role="progress"]');
  const text = card.querySelector('[data-role="progress-text"]');
  const badge = card.querySelector('[data-role="status"]');
  // What the last answer said, and when: the bar extrapolates from it until the next one.
  let known = { progress: bar ? Number(bar.value) : 0, eta: null, queued: false, at: Date.now() };
  const animate = () => {
    if (bar && !known.queued && known.eta) {
      const share = Math.min(1, (Date.now() - known.at) / 1000 / known.eta);
      bar.value = Math.min(0.99, known.progress + (1 - known.progress) * share);
    }
  };
  const timer = setInterval(animate, TICK_MS);
  const ask = () => {
    fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then((res) => (res.ok ? res.json() : Promise.reject(new Error(String(res.status)))))
      .then((task) => {
        if (task.status === 'completed' || task.status === 'failed') {
          clearInterval(timer);
          window.location.reload();
          return;
        }
        known = { progress: task.progress, eta: task.estimated_time, queued: task.queue_position > 0, at: Date.now() };
        if (bar) bar.value = task.progress;
        if (text && task.progress_text) text.textContent = task.progress_text;
        if (badge) badge.textContent = task.queue_position > 0 ? 'Queued' : 'Rendering';
        if (long) ask();
        else setTimeout(ask, SHORT_POLL_MS);
      })
      .catch(() => setTimeout(ask, RETRY_MS));
  };
  ask();
}

document.addEventListener('DOMContentLoaded', () => {
  setUpCopyButtons();
  setUpChips();
  setUpRevealButtons();
  setUpHiders();
  for (const sheet of document.querySelectorAll('[data-karaoke]')) setUpKaraoke(sheet);
  [...document.querySelectorAll('[data-poll]')].forEach((card, index) => {
    watch(card, index < LONG_POLLS);
  });
});
