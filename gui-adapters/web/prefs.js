// The person's preferences, kept in this browser (localStorage): dark mode (by default as the
// system says, prefers-color-scheme) and sounds (off by default; tones made with WebAudio, no
// audio files); and which way this tab's board is turned (sessionStorage: it survives a
// reload of the tab, and other tabs keep their own).

const THEME = 'ludus-theme';
const SOUND = 'ludus-sound';
const FLIP = 'ludus-flip';

function stored(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

function store(key, value) {
  try { localStorage.setItem(key, value); } catch { /* private mode: kept for this page only */ }
}

/** The theme in force: the one chosen here, else the system's. */
function theme() {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === 'dark' || chosen === 'light') return chosen;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Shows the theme on `button` (it offers the other one). */
function showTheme(button) {
  const dark = theme() === 'dark';
  button.textContent = dark ? '☀ Light' : '☾ Dark';
  button.setAttribute('aria-pressed', String(dark));
  document.body.dataset.theme = theme();
}

/** Sets up the dark-mode toggle: a stored choice wins over the system's. */
export function initTheme(button) {
  const saved = stored(THEME);
  if (saved === 'dark' || saved === 'light') document.documentElement.dataset.theme = saved;
  showTheme(button);
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => showTheme(button));
  button.addEventListener('click', () => {
    const next = theme() === 'dark' ? 'light' : 'dark';
    document.documentElement.dataset.theme = next;
    store(THEME, next);
    showTheme(button);
  });
}

/** Whether this tab's board was turned to player two's side. */
export function storedFlip() {
  try { return sessionStorage.getItem(FLIP) === 'true'; } catch { return false; }
}

/** Keeps which way this tab's board is turned. */
export function storeFlip(flipped) {
  try { sessionStorage.setItem(FLIP, String(flipped)); } catch { /* kept for this page only */ }
}

let audio = null;
let soundOn = false;

/** The tones of each event: [frequency Hz, start s, length s] each. */
const TONES = {
  move: [[520, 0, 0.07]],
  capture: [[330, 0, 0.08], [220, 0.07, 0.12]],
  alert: [[880, 0, 0.08], [880, 0.14, 0.08]],
  end: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.22]],
};

/** Plays the tones of `kind` (`move`, `capture`, `alert`, `end`) if sounds are on. */
export function playSound(kind) {
  if (!soundOn || !audio || !TONES[kind]) return;
  const now = audio.currentTime;
  for (const [freq, at, len] of TONES[kind]) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = 'triangle';
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + at);
    gain.gain.exponentialRampToValueAtTime(0.18, now + at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + at + len);
    osc.connect(gain).connect(audio.destination);
    osc.start(now + at);
    osc.stop(now + at + len + 0.02);
  }
  document.body.dataset.sounds = String(Number(document.body.dataset.sounds ?? 0) + 1);
}

function showSound(button) {
  button.textContent = soundOn ? '♪ Sound on' : '♪ Sound off';
  button.setAttribute('aria-pressed', String(soundOn));
  document.body.dataset.sound = soundOn ? 'on' : 'off';
}

/** Sets up the sound toggle (off unless turned on here before). */
export function initSound(button) {
  soundOn = stored(SOUND) === 'on';
  showSound(button);
  button.addEventListener('click', () => {
    soundOn = !soundOn;
    store(SOUND, soundOn ? 'on' : 'off');
    // Browsers let a page make sound only after a person's gesture: this click is one.
    if (soundOn && !audio && typeof AudioContext === 'function') audio = new AudioContext();
    audio?.resume?.();
    showSound(button);
    if (soundOn) playSound('move');
  });
  // A stored "on" needs a gesture too: the first click anywhere starts the audio.
  addEventListener('pointerdown', () => {
    if (soundOn && !audio && typeof AudioContext === 'function') audio = new AudioContext();
  }, { once: true });
}
