#!/usr/bin/env node
// `npm run sounds:build`: renders the 28-file pack into assets/sounds/ (MP3, stereo, 44.1 kHz), calibrates
// each file's loudness with the EBU R128 meter, and writes manifest.csv from measurements of the produced files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { log, repoRoot } from '../lib/util.mjs';
import { decode, edges, ensureFfmpeg, fileSize, integratedLufs, peakDbfs, run } from './audio.mjs';
import { channelExpression, SOUNDS } from './catalog.mjs';
import { manifestCsv, PACK_DIR } from './pack.mjs';

function render(sound, gainDb, out, codec) {
  const source = `aevalsrc=exprs='${channelExpression(sound, 0)}|${channelExpression(sound, 1)}':s=44100:d=${sound.total}`;
  const encoder = codec === 'mp3' ? ['-c:a', 'libmp3lame', '-b:a', '160k', '-write_xing', '1'] : ['-c:a', 'pcm_f32le'];
  run('ffmpeg', [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', source,
    '-af', `volume=${gainDb.toFixed(3)}dB`, '-ac', '2', '-ar', '44100',
    // Reproducible bytes: no encoder version or metadata in the file.
    '-map_metadata', '-1', '-fflags', '+bitexact', '-flags:a', '+bitexact',
    ...encoder, out,
  ]);
}

export function buildPack({ only } = {}) {
  ensureFfmpeg(log);
  fs.mkdirSync(PACK_DIR, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sounds-'));
  const rows = [];
  const selected = only ? SOUNDS.filter((s) => only.includes(s.name)) : SOUNDS;
  selected.forEach((sound, i) => {
    const wav = path.join(tmp, `${sound.name}.wav`);
    render(sound, 0, wav, 'wav');
    let gain = sound.lufs - integratedLufs(wav, sound.total);
    const mp3 = path.join(PACK_DIR, `${sound.name}.mp3`);
    let lufs = Number.NaN;
    // Encode, re-measure the MP3 itself, correct once or twice (the encoder shifts the level slightly).
    for (let attempt = 0; attempt < 3; attempt += 1) {
      render(sound, gain, mp3, 'mp3');
      lufs = integratedLufs(mp3, decode(mp3).durationSec);
      if (Math.abs(lufs - sound.lufs) <= 0.2) break;
      gain += sound.lufs - lufs;
    }
    const decoded = decode(mp3);
    const { leadMs, tailMs } = edges(decoded);
    const peak = peakDbfs(decoded);
    rows.push({ sound, durationSec: decoded.durationSec, lufs });
    log(`  [${i + 1}/${selected.length}] ${sound.name}.mp3  ${decoded.durationSec.toFixed(3)} s  ${lufs.toFixed(1)} LUFS  peak ${peak.toFixed(1)} dBFS  silence ${leadMs.toFixed(0)}/${tailMs.toFixed(0)} ms  ${(fileSize(mp3) / 1024).toFixed(1)} KB`);
  });
  fs.rmSync(tmp, { recursive: true, force: true });
  if (!only) fs.writeFileSync(path.join(PACK_DIR, 'manifest.csv'), manifestCsv(rows));
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  log(`building the sound pack into ${path.relative(repoRoot, PACK_DIR)}/ …`);
  const rows = buildPack({ only: process.argv.slice(2).length ? process.argv.slice(2) : undefined });
  log(`done: ${rows.length} files; run npm run sounds:check to validate`);
}
