// The dashboard's only script (served from this app; the CSP allows nothing else).
// Copy buttons, example-prompt chips, and live progress for tasks still rendering.
'use strict';

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
        setTimeout(() => { button.textContent = label; }, 1500);
      });
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

const POLL_MS = 1000;

/** Polls a task's status JSON; updates its bar and sentence; reloads the page once it is finished. */
function watch(card) {
  const url = card.dataset.poll;
  const bar = card.querySelector('[data-role="progress"]');
  const text = card.querySelector('[data-role="progress-text"]');
  const badge = card.querySelector('[data-role="status"]');
  const tick = () => {
    fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then((res) => (res.ok ? res.json() : Promise.reject(new Error(String(res.status)))))
      .then((task) => {
        if (task.status === 'completed' || task.status === 'failed') {
          window.location.reload();
          return;
        }
        if (bar) bar.value = task.progress;
        if (text && task.progress_text) text.textContent = task.progress_text;
        if (badge) badge.textContent = task.queue_position > 0 ? 'Queued' : 'Rendering';
        setTimeout(tick, POLL_MS);
      })
      .catch(() => setTimeout(tick, POLL_MS * 5));
  };
  setTimeout(tick, POLL_MS);
}

document.addEventListener('DOMContentLoaded', () => {
  setUpCopyButtons();
  setUpChips();
  for (const card of document.querySelectorAll('[data-poll]')) watch(card);
});
