// The spec's 28 sounds: exact names, duration ranges, loop flags, loudness targets, and an original
// synthetic design for each (notes rendered by ffmpeg's aevalsrc; no samples from anywhere).
export const PAD_SEC = 0.06; // silence at start and end (spec: 30 to 80 ms)
export const RINGTONE_LUFS = -14;
export const MICRO_LUFS = -17; // spec: -16 to -18 for UI micro sounds
export const LUFS_TOLERANCE = 1;

// midi note -> Hz
const hz = (midi) => 440 * 2 ** ((midi - 69) / 12);
const N = { C5: 72, D5: 74, E5: 76, F5: 77, G5: 79, A5: 81, B5: 83, C6: 84, D6: 86, E6: 88, F6: 89, G6: 91, A6: 93, B6: 95, C7: 96, A4: 69, B4: 71, E4: 64, G4: 67, C4: 60, D4: 62, F4: 65 };

// A note: start and length in seconds (from the end of the leading silence), pitch, and timbre.
const note = (start, dur, pitch, opts = {}) => ({
  start,
  dur,
  freq: typeof pitch === 'number' && pitch < 200 ? hz(pitch) : pitch,
  gain: opts.gain ?? 0.25,
  decay: opts.decay ?? 6,
  harmonics: opts.harmonics ?? [1, 0.3, 0.1],
  pan: opts.pan ?? 0,
});
const chime = (start, dur, pitch, pan = 0) => note(start, dur, N[pitch] ?? pitch, { decay: 7, harmonics: [1, 0.25, 0.08, 0.04], pan });
const soft = (start, dur, freq, pan = 0) => note(start, dur, freq, { decay: 2, harmonics: [1, 0.05], pan });
const buzz = (start, dur, pitch, pan = 0) => note(start, dur, N[pitch] ?? pitch, { decay: 3, harmonics: [1, 0.5, 0.33, 0.25, 0.2], pan });
const pluck = (start, dur, pitch, pan = 0) => note(start, dur, N[pitch] ?? pitch, { decay: 14, harmonics: [1, 0.45, 0.2, 0.1], pan });

const arp = (start, step, dur, pitches, make = chime) => pitches.map((p, i) => make(start + i * step, dur, p, i % 2 ? 0.2 : -0.2));

export const SOUNDS = [
  // A. Calls
  { name: 'call_ringtone_incoming', group: 'calls', min: 2.5, max: 4, loop: true, lufs: RINGTONE_LUFS, total: 3.2,
    notes: [...arp(0, 0.13, 0.22, ['E5', 'G5', 'C6', 'E6'], pluck), ...arp(0.6, 0.13, 0.22, ['E5', 'G5', 'C6', 'G6'], pluck), chime(1.25, 0.6, 'C6')],
    notes_text: 'marimba-like arpeggio twice and a bell, then rest; loops every 3.2 s' },
  { name: 'call_ringtone_outgoing', group: 'calls', min: 2, max: 3.5, loop: true, lufs: RINGTONE_LUFS, total: 3.0,
    notes: [soft(0, 1.1, 440), soft(0, 1.1, 480)],
    notes_text: 'ring-back: 440 + 480 Hz for 1.1 s, then rest; loops every 3 s' },
  { name: 'call_connecting', group: 'calls', min: 1, max: 2, loop: true, lufs: MICRO_LUFS, total: 1.4,
    notes: [soft(0, 0.18, 660, -0.1), soft(0.45, 0.18, 660, 0.1)],
    notes_text: 'two soft 660 Hz pulses; gentle loop every 1.4 s' },
  { name: 'call_connected', group: 'calls', min: 0.4, max: 0.8, loop: false, lufs: MICRO_LUFS, total: 0.55, notes: arp(0, 0.12, 0.3, ['G5', 'C6']), notes_text: 'rising fourth' },
  { name: 'call_ended', group: 'calls', min: 0.3, max: 0.6, loop: false, lufs: MICRO_LUFS, total: 0.45, notes: arp(0, 0.1, 0.2, ['C6', 'G5']), notes_text: 'falling fourth' },
  { name: 'call_busy', group: 'calls', min: 0.6, max: 1.2, loop: false, lufs: MICRO_LUFS, total: 0.9,
    notes: [0, 0.27, 0.54].map((s) => note(s, 0.18, 480, { decay: 1, harmonics: [1, 0.2] })), notes_text: 'three short 480 Hz tones' },
  { name: 'call_missed', group: 'calls', min: 0.8, max: 1.5, loop: false, lufs: MICRO_LUFS, total: 1.1, notes: arp(0, 0.18, 0.45, ['E6', 'C6', 'A5']), notes_text: 'descending minor triad' },
  // B. Notifications
  { name: 'notif_default', group: 'notifications', min: 0.4, max: 0.9, loop: false, lufs: MICRO_LUFS, total: 0.6, notes: arp(0, 0.11, 0.35, ['E6', 'B6']), notes_text: 'two-note chime' },
  { name: 'notif_message', group: 'notifications', min: 0.25, max: 0.5, loop: false, lufs: MICRO_LUFS, total: 0.36, notes: arp(0, 0.07, 0.15, ['A5', 'E6'], pluck), notes_text: 'quick plucked pair' },
  { name: 'notif_order', group: 'notifications', min: 0.4, max: 0.8, loop: false, lufs: MICRO_LUFS, total: 0.62, notes: arp(0, 0.1, 0.25, ['C6', 'E6', 'G6']), notes_text: 'ascending major triad' },
  { name: 'notif_ride', group: 'notifications', min: 0.5, max: 1, loop: false, lufs: MICRO_LUFS, total: 0.75, notes: arp(0, 0.16, 0.35, ['G5', 'D6', 'G6']), notes_text: 'open fifths, car-horn-like but soft' },
  { name: 'notif_payment', group: 'notifications', min: 0.5, max: 0.9, loop: false, lufs: MICRO_LUFS, total: 0.68, notes: arp(0, 0.08, 0.4, ['B5', 'E6'], pluck), notes_text: 'coin-like high pair' },
  { name: 'notif_promo', group: 'notifications', min: 0.5, max: 1, loop: false, lufs: MICRO_LUFS, total: 0.82, notes: arp(0, 0.09, 0.3, ['C6', 'E6', 'G6', 'C7']), notes_text: 'sparkle arpeggio' },
  { name: 'notif_urgent', group: 'notifications', min: 0.8, max: 1.5, loop: false, lufs: MICRO_LUFS, total: 1.15,
    notes: [0, 0.32, 0.64].flatMap((s) => [buzz(s, 0.13, 'A5', -0.15), buzz(s + 0.14, 0.13, 'E6', 0.15)]), notes_text: 'three alternating high pairs' },
  // C. UI
  { name: 'ui_success', group: 'ui', min: 0.3, max: 0.6, loop: false, lufs: MICRO_LUFS, total: 0.45, notes: arp(0, 0.08, 0.22, ['E6', 'A6']), notes_text: 'bright rising pair' },
  { name: 'ui_error', group: 'ui', min: 0.25, max: 0.5, loop: false, lufs: MICRO_LUFS, total: 0.38, notes: arp(0, 0.1, 0.15, ['E4', 'C4'], buzz), notes_text: 'low falling buzz' },
  { name: 'ui_send_message', group: 'ui', min: 0.15, max: 0.35, loop: false, lufs: MICRO_LUFS, total: 0.26, notes: arp(0, 0.04, 0.09, ['C6', 'G6'], pluck), notes_text: 'upward blip' },
  { name: 'ui_add_cart', group: 'ui', min: 0.15, max: 0.35, loop: false, lufs: MICRO_LUFS, total: 0.24, notes: [pluck(0, 0.11, 'G5')], notes_text: 'single pop' },
  { name: 'ui_checkout', group: 'ui', min: 0.4, max: 0.7, loop: false, lufs: MICRO_LUFS, total: 0.55, notes: arp(0, 0.09, 0.22, ['G5', 'C6', 'E6']), notes_text: 'short confirm arpeggio' },
  { name: 'ui_scan_qr', group: 'ui', min: 0.15, max: 0.3, loop: false, lufs: MICRO_LUFS, total: 0.22, notes: [note(0, 0.09, 1760, { decay: 4, harmonics: [1, 0.1] })], notes_text: 'scanner beep 1760 Hz' },
  // D. Ride
  { name: 'ride_driver_assigned', group: 'ride', min: 0.5, max: 0.9, loop: false, lufs: MICRO_LUFS, total: 0.7, notes: arp(0, 0.12, 0.3, ['D6', 'F6', 'A6']), notes_text: 'minor-third steps up' },
  { name: 'ride_driver_arriving', group: 'ride', min: 0.6, max: 1, loop: false, lufs: MICRO_LUFS, total: 0.8, notes: [chime(0, 0.28, 'A5'), chime(0.3, 0.35, 'A5')], notes_text: 'knock-knock repeated bell' },
  { name: 'ride_trip_started', group: 'ride', min: 0.4, max: 0.7, loop: false, lufs: MICRO_LUFS, total: 0.55, notes: arp(0, 0.09, 0.25, ['C6', 'G6']), notes_text: 'go: rising fifth' },
  { name: 'ride_trip_completed', group: 'ride', min: 0.6, max: 1, loop: false, lufs: MICRO_LUFS, total: 0.82, notes: arp(0, 0.1, 0.35, ['G5', 'B5', 'D6', 'G6']), notes_text: 'resolving major arpeggio' },
  // E. Wallet
  { name: 'wallet_topup_success', group: 'wallet', min: 0.5, max: 0.9, loop: false, lufs: MICRO_LUFS, total: 0.7, notes: arp(0, 0.07, 0.35, ['E6', 'G6', 'C7'], pluck), notes_text: 'coins up' },
  { name: 'wallet_transfer_sent', group: 'wallet', min: 0.4, max: 0.7, loop: false, lufs: MICRO_LUFS, total: 0.55, notes: arp(0, 0.08, 0.25, ['G6', 'D6']), notes_text: 'outgoing: falling fourth' },
  { name: 'wallet_transfer_received', group: 'wallet', min: 0.5, max: 0.9, loop: false, lufs: MICRO_LUFS, total: 0.7, notes: arp(0, 0.08, 0.3, ['D6', 'G6', 'B6'], pluck), notes_text: 'incoming: rising coins' },
  { name: 'wallet_payment_fail', group: 'wallet', min: 0.4, max: 0.8, loop: false, lufs: MICRO_LUFS, total: 0.6, notes: arp(0, 0.13, 0.2, ['F4', 'D4'], buzz), notes_text: 'low double buzz' },
];

// The last-ending note rings until the trailing pad, decaying slowly enough to stay audible there:
// every file then has about PAD_SEC of silence at both ends (loops included, so the seam is a short rest).
for (const sound of SOUNDS) {
  const last = sound.notes.reduce((a, b) => (b.start + b.dur >= a.start + a.dur ? b : a));
  last.dur = sound.total - 2 * PAD_SEC - last.start;
  last.decay = Math.min(last.decay, Math.log(60) / last.dur);
}

// One channel's aevalsrc expression: each note enveloped (4 ms attack, exponential decay, 12 ms release).
export function channelExpression(sound, channel) {
  const terms = sound.notes.map((n) => {
    const s = (PAD_SEC + n.start).toFixed(4);
    const e = (PAD_SEC + n.start + n.dur).toFixed(4);
    const panGain = channel === 0 ? Math.min(1, 1 - n.pan) : Math.min(1, 1 + n.pan);
    const partials = n.harmonics.map((h, k) => `${h}*sin(${(2 * Math.PI * n.freq * (k + 1)).toFixed(4)}*(t-${s}))`).join('+');
    return `between(t,${s},${e})*${(n.gain * panGain).toFixed(4)}*min(1,(t-${s})/0.004)*min(1,(${e}-t)/0.012)*exp(-${n.decay}*(t-${s}))*(${partials})`;
  });
  return terms.join('+');
}

export function targetRange(sound) {
  return [sound.lufs - LUFS_TOLERANCE, sound.lufs + LUFS_TOLERANCE];
}
