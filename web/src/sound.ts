// Short beeps made with WebAudio: no sound files. Off unless the "Sounds" box is ticked.

import { storageGet, storageSet } from './dom';

const KEY = 'bughouse.sound';
let ctx: AudioContext | undefined;

export function soundOn(): boolean {
  return storageGet(KEY) === '1';
}

export function setSound(on: boolean): void {
  storageSet(KEY, on ? '1' : '0');
  if (on) audio(); // create (and unlock) the context inside the click
}

function audio(): AudioContext | undefined {
  if (!ctx) {
    const Ctor = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctor) return undefined;
    ctx = new Ctor();
  }
  if (ctx.state === 'suspended') void ctx.resume();
  return ctx;
}

function beep(freq: number, ms: number, delayMs = 0, volume = 0.08, type: OscillatorType = 'sine'): void {
  const a = audio();
  if (!a) return;
  const start = a.currentTime + delayMs / 1000;
  const osc = a.createOscillator();
  const gain = a.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  gain.gain.setValueAtTime(0, start);
  gain.gain.linearRampToValueAtTime(volume, start + 0.005);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + ms / 1000);
  osc.connect(gain).connect(a.destination);
  osc.start(start);
  osc.stop(start + ms / 1000 + 0.02);
}

export type SoundKind = 'move' | 'capture' | 'end' | 'talk' | 'low';

export function play(kind: SoundKind): void {
  if (!soundOn()) return;
  switch (kind) {
    case 'move':
      beep(660, 70);
      break;
    case 'capture':
      beep(330, 110, 0, 0.1, 'triangle');
      break;
    case 'end':
      beep(523, 160);
      beep(659, 160, 170);
      beep(784, 260, 340);
      break;
    case 'talk':
      beep(880, 60);
      beep(880, 60, 90);
      break;
    case 'low':
      // Low time: three short high ticks.
      beep(1200, 50, 0, 0.09, 'square');
      beep(1200, 50, 120, 0.09, 'square');
      beep(1200, 50, 240, 0.09, 'square');
      break;
  }
}
