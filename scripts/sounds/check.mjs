#!/usr/bin/env node
// `npm run sounds:check`: re-measures every file of assets/sounds/ and fails on any broken rule
// (names, format, duration, silence, loudness, size, loops, manifest). Part of `npm test`.
import fs from 'node:fs';
import path from 'node:path';
import { log } from '../lib/util.mjs';
import { decode, edges, ensureFfmpeg, fileSize, integratedLufs, peakDbfs, probe } from './audio.mjs';
import { SOUNDS, targetRange } from './catalog.mjs';
import { MANIFEST_COLUMNS, PACK_DIR, parseCsv } from './pack.mjs';

const MAX_BYTES = 512 * 1024;
const SILENCE_MS = [30, 80];
const RINGTONE_LOOP_SEC = [2, 4];

function checkFile(sound) {
  const problems = [];
  const file = path.join(PACK_DIR, `${sound.name}.mp3`);
  if (!fs.existsSync(file)) return { problems: ['missing'], measured: null };
  const info = probe(file);
  if (info.codec !== 'mp3' || !info.formatName.includes('mp3')) problems.push(`not MP3 (codec ${info.codec}, format ${info.formatName})`);
  if (info.channels !== 2) problems.push(`${info.channels} channel(s), want stereo`);
  if (info.sampleRate !== 44100) problems.push(`${info.sampleRate} Hz, want 44100`);
  const decoded = decode(file);
  const duration = decoded.durationSec;
  if (duration < sound.min || duration > sound.max) problems.push(`duration ${duration.toFixed(3)} s outside ${sound.min}–${sound.max} s`);
  const { leadMs, tailMs } = edges(decoded);
  if (leadMs < SILENCE_MS[0] || leadMs > SILENCE_MS[1]) problems.push(`leading silence ${leadMs.toFixed(1)} ms outside 30–80 ms`);
  if (tailMs < SILENCE_MS[0] || tailMs > SILENCE_MS[1]) problems.push(`trailing silence ${tailMs.toFixed(1)} ms outside 30–80 ms`);
  const lufs = integratedLufs(file, duration);
  const [lo, hi] = targetRange(sound);
  if (lufs < lo || lufs > hi) problems.push(`loudness ${lufs.toFixed(1)} LUFS outside ${lo} to ${hi}`);
  const peak = peakDbfs(decoded);
  if (peak > -0.5) problems.push(`peak ${peak.toFixed(1)} dBFS: clipping risk`);
  const size = fileSize(file);
  if (size > MAX_BYTES) problems.push(`${size} bytes > 512 KB`);
  if (sound.loop && sound.lufs === -14 && (duration < RINGTONE_LOOP_SEC[0] || duration > RINGTONE_LOOP_SEC[1])) {
    problems.push(`ringtone loop ${duration.toFixed(2)} s outside 2–4 s`);
  }
  return { problems, measured: { duration, lufs, leadMs, tailMs, size, peak } };
}

function checkManifest(measured) {
  const problems = [];
  const file = path.join(PACK_DIR, 'manifest.csv');
  if (!fs.existsSync(file)) return ['manifest.csv missing'];
  const [header, ...rows] = parseCsv(fs.readFileSync(file, 'utf8'));
  if (header.join(',') !== MANIFEST_COLUMNS) problems.push(`columns "${header.join(',')}", want "${MANIFEST_COLUMNS}"`);
  if (rows.length !== SOUNDS.length) problems.push(`${rows.length} rows, want ${SOUNDS.length}`);
  for (const sound of SOUNDS) {
    const row = rows.find((r) => r[0] === `${sound.name}.mp3`);
    const m = measured[sound.name];
    if (!row) {
      problems.push(`no row for ${sound.name}.mp3`);
      continue;
    }
    if (!m) continue;
    if (Math.abs(Number(row[1]) - m.duration) > 0.005) problems.push(`${row[0]}: duration_sec ${row[1]} but measured ${m.duration.toFixed(3)}`);
    if (Math.abs(Number(row[2]) - m.lufs) > 0.2) problems.push(`${row[0]}: lufs ${row[2]} but measured ${m.lufs.toFixed(1)}`);
    if (row[3] !== String(sound.loop)) problems.push(`${row[0]}: loop ${row[3]}, want ${sound.loop}`);
    if (!row[4]) problems.push(`${row[0]}: empty notes`);
  }
  return problems;
}

function strayFiles() {
  const expected = new Set(['manifest.csv', ...SOUNDS.flatMap((s) => [`${s.name}.mp3`, `${s.name}.wav`])]);
  return fs.readdirSync(PACK_DIR).filter((f) => !expected.has(f));
}

export function checkPack() {
  ensureFfmpeg(log);
  const results = [];
  const measured = {};
  for (const sound of SOUNDS) {
    const { problems, measured: m } = checkFile(sound);
    if (m) measured[sound.name] = m;
    results.push({ name: `${sound.name}.mp3`, problems });
  }
  results.push({ name: 'manifest.csv', problems: checkManifest(measured) });
  const strays = strayFiles();
  results.push({ name: 'no stray files', problems: strays.map((f) => `unexpected file ${f}`) });
  return { results, measured };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { results, measured } = checkPack();
  for (const r of results) log(`${r.problems.length ? 'FAIL' : 'ok  '} ${r.name}${r.problems.length ? `: ${r.problems.join('; ')}` : ''}`);
  const values = Object.values(measured);
  if (values.length) {
    const range = (k, digits) => `${Math.min(...values.map((v) => v[k])).toFixed(digits)} to ${Math.max(...values.map((v) => v[k])).toFixed(digits)}`;
    log(`measured: duration ${range('duration', 3)} s, loudness ${range('lufs', 1)} LUFS, size ${range('size', 0)} bytes, silence ${range('leadMs', 0)}/${range('tailMs', 0)} ms`);
  }
  const failed = results.filter((r) => r.problems.length).length;
  const outFile = process.argv.find((a) => a.startsWith('--json='))?.slice(7);
  if (outFile) fs.writeFileSync(outFile, JSON.stringify({ passed: results.length - failed, failed, results }));
  process.stdout.write(`${results.length - failed} passed, ${failed} failed\n`);
  process.exit(failed ? 1 : 0);
}
