// sound.js: short sound effects synthesised with WebAudio (no files to
// download): a step, a push, a box reaching a goal, and a solved jingle.
// Silent until the player turns sound on; the audio context starts on the
// first sound after that (browsers require a user gesture).

let ctx = null;
let enabled = false;

export function setSoundEnabled(on) {
  enabled = on;
}

function audio() {
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    ctx = new AC();
  }
  if (ctx.state === 'suspended') ctx.resume();
  return ctx;
}

function tone(freq, at, length, { type = 'sine', gain = 0.15, slide = 0 } = {}) {
  const a = audio();
  if (!a) return;
  const t = a.currentTime + at;
  const osc = a.createOscillator();
  const amp = a.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t);
  if (slide) osc.frequency.exponentialRampToValueAtTime(freq * slide, t + length);
  amp.gain.setValueAtTime(0.0001, t);
  amp.gain.exponentialRampToValueAtTime(gain, t + 0.008);
  amp.gain.exponentialRampToValueAtTime(0.0001, t + length);
  osc.connect(amp).connect(a.destination);
  osc.start(t);
  osc.stop(t + length + 0.02);
}

const effects = {
  step: () => tone(220, 0, 0.05, { type: 'triangle', gain: 0.06, slide: 0.8 }),
  push: () => tone(110, 0, 0.12, { type: 'square', gain: 0.05, slide: 0.7 }),
  goal: () => { tone(660, 0, 0.1, { gain: 0.1 }); tone(990, 0.07, 0.14, { gain: 0.08 }); },
  solved: () => [523, 659, 784, 1047].forEach((f, i) => tone(f, i * 0.11, 0.28, { type: 'triangle', gain: 0.12 })),
  bump: () => tone(80, 0, 0.06, { type: 'sine', gain: 0.08 }),
};

/** Plays a named effect when sound is on. */
export function play(name) {
  if (!enabled || !effects[name]) return;
  try {
    effects[name]();
  } catch {
    // No audio output: stay silent.
  }
}
